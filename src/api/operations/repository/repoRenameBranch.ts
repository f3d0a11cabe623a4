import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoRenameBranch: Handler<'repoRenameBranch'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.branches.rename(loaded, actor, req.path.branch, req.body.name);
  return { status: 204 };
};
