import { toTeam } from '../../../convert/team.js';
import { NotFound } from '../../../services/errors.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoCheckTeam: Handler<'repoCheckTeam'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const team = await req.services.orgLookups.teamOfRepoOwner(loaded, req.path.team);
  const viewer = await req.services.access.orgViewer(loaded.owner.id, req.auth.actor);
  if (!(await req.services.teams.visibleTo(team, viewer)) || !(await req.services.orgLookups.teamReaches(team, loaded.repo))) throw new NotFound();
  const units = (await req.services.teams.unitsOf([team.id])).get(team.id)!;
  return { status: 200, body: toTeam(team, units, loaded.owner, req.auth.actor, req.config) };
};
