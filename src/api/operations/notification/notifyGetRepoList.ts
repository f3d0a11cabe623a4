import { toNotificationThread } from '../../../convert/notification.js';
import { actorOf, loadRepo } from '../../load.js';
import { listFilter } from '../../notificationParams.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const notifyGetRepoList: Handler<'notifyGetRepoList'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.notifications.list(actor, { ...listFilter(req.query), repoId: loaded.repo.id }, page);
  return {
    status: 200,
    body: rows.map((t) => toNotificationThread(t, actor, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
