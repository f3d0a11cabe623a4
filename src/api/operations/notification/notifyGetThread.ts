import { toNotificationThread } from '../../../convert/notification.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const notifyGetThread: Handler<'notifyGetThread'> = async (req) => {
  const actor = actorOf(req);
  return { status: 200, body: toNotificationThread(await req.services.notifications.get(actor, req.path.id), actor, req.config) };
};
