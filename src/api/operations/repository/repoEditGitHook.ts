import { toGitHook } from '../../../convert/gitHook.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoEditGitHook: Handler<'repoEditGitHook'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: toGitHook(req.services.gitHooks.edit(loaded, actor, req.path.id, req.body.content ?? '')) };
};
