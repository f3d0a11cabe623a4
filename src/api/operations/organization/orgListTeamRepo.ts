import { toRepository } from '../../../convert/repo.js';
import { NotFound } from '../../../services/errors.js';
import { loadRepo, loadTeam } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgListTeamRepo: Handler<'orgListTeamRepo'> = async (req) => {
  const { team } = await loadTeam(req, req.path.id);
  const { repo, owner, perm } = await loadRepo(req, req.path.org, req.path.repo);
  if (!(await req.services.orgLookups.teamReaches(team, repo))) throw new NotFound();
  return { status: 200, body: toRepository(repo, owner, perm, req.auth.actor, req.config) };
};
