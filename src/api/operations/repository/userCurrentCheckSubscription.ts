import { repoUrls } from '../../../convert/repo.js';
import { toWatchInfo } from '../../../convert/watch.js';
import { NotFound } from '../../../services/errors.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentCheckSubscription: Handler<'userCurrentCheckSubscription'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const watch = await req.services.watches.watchOf(loaded, actorOf(req));
  if (!watch) throw new NotFound();
  const api = repoUrls(req.config, loaded.owner.name, loaded.repo.name).api;
  return { status: 200, body: toWatchInfo(watch, api, `${api}/subscription`) };
};
