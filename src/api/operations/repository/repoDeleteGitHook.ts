import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteGitHook: Handler<'repoDeleteGitHook'> = async (req) => {
  const actor = actorOf(req);
  req.services.gitHooks.delete(await loadRepo(req, req.path.owner, req.path.repo), actor, req.path.id);
  return { status: 204 };
};
