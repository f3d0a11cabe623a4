import { toNotificationThread } from '../../../convert/notification.js';
import { actorOf, loadRepo } from '../../load.js';
import { transitionOf } from '../../notificationParams.js';
import type { Handler } from '../../types.js';

export const notifyReadRepoList: Handler<'notifyReadRepoList'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { to, ...filter } = transitionOf(req.query);
  const changed = await req.services.notifications.transition(actor, { ...filter, repoId: loaded.repo.id }, to);
  return { status: 205, body: changed.map((t) => toNotificationThread(t, actor, req.config)) };
};
