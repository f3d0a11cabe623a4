import { toUser } from '../../../convert/user.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userGetCurrent: Handler<'userGetCurrent'> = async (req) => {
  const me = actorOf(req);
  return { status: 200, body: toUser(me, me, req.config) };
};
