import { actorOf, loadRepo } from '../../load.js';
import { requireRepoHookAdmin } from '../../../services/events/hooks.js';
import type { Handler } from '../../types.js';

export const repoTestHook: Handler<'repoTestHook'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  requireRepoHookAdmin(loaded);
  await req.services.hooks.test(loaded, actorOf(req), req.path.id);
  return { status: 204 };
};
