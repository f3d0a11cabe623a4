import { NotFound } from '../../../services/errors.js';
import { loadRepo, loadTeam } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgAddTeamRepository: Handler<'orgAddTeamRepository'> = async (req) => {
  const { team, org, viewer } = await loadTeam(req, req.path.id);
  // The repository is looked up in the team's organization; naming another is 404.
  if (req.path.org.toLowerCase() !== org.lowerName) throw new NotFound();
  const loaded = await loadRepo(req, org.name, req.path.repo);
  await req.services.teams.changeRepo(team, viewer, loaded, true);
  return { status: 204 };
};
