import { toNotificationThread } from '../../../convert/notification.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const notifyReadThread: Handler<'notifyReadThread'> = async (req) => {
  const actor = actorOf(req);
  const thread = await req.services.notifications.mark(actor, req.path.id, req.query['to-status'] ?? 'read');
  return { status: 205, body: toNotificationThread(thread, actor, req.config) };
};
