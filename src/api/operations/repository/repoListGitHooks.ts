import { toGitHook } from '../../../convert/gitHook.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoListGitHooks: Handler<'repoListGitHooks'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: req.services.gitHooks.list(loaded, actor).map(toGitHook) };
};
