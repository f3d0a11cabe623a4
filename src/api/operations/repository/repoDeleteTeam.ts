import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteTeam: Handler<'repoDeleteTeam'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.orgLookups.changeRepoTeam(loaded, req.path.team, false);
  return { status: 204 };
};
