import { repoUrls } from '../../../convert/repo.js';
import { toWatchInfo } from '../../../convert/watch.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueCheckSubscription: Handler<'issueCheckSubscription'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  const sub = await req.services.watches.issueSubscription(loaded, issue, actorOf(req));
  const api = repoUrls(req.config, loaded.owner.name, loaded.repo.name).api;
  return { status: 200, body: toWatchInfo(sub, api, `${api}/issues/${issue.index}/subscriptions`) };
};
