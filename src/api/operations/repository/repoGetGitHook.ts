import { refuseGitHooks } from '../../../services/repos/gitHooks.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetGitHook: Handler<'repoGetGitHook'> = async (req) => {
  actorOf(req);
  return refuseGitHooks(await loadRepo(req, req.path.owner, req.path.repo));
};
