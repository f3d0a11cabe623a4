import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteBranch: Handler<'repoDeleteBranch'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.branches.delete(loaded, actorOf(req), req.path.branch);
  return { status: 204 };
};
