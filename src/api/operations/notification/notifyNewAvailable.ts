import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const notifyNewAvailable: Handler<'notifyNewAvailable'> = async (req) => {
  return { status: 200, body: { new: await req.services.notifications.unreadCount(actorOf(req)) } };
};
