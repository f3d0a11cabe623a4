import { toNotificationThread } from '../../../convert/notification.js';
import { actorOf } from '../../load.js';
import { transitionOf } from '../../notificationParams.js';
import type { Handler } from '../../types.js';

export const notifyReadList: Handler<'notifyReadList'> = async (req) => {
  const actor = actorOf(req);
  const { to, ...filter } = transitionOf(req.query);
  const changed = await req.services.notifications.transition(actor, filter, to);
  return { status: 205, body: changed.map((t) => toNotificationThread(t, actor, req.config)) };
};
