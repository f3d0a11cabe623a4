import { repoUrls } from '../../../convert/repo.js';
import { toWatchInfo } from '../../../convert/watch.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentPutSubscription: Handler<'userCurrentPutSubscription'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const watch = await req.services.watches.watch(loaded, actorOf(req));
  const api = repoUrls(req.config, loaded.owner.name, loaded.repo.name).api;
  return { status: 200, body: toWatchInfo(watch, api, `${api}/subscription`) };
};
