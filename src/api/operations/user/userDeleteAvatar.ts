import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userDeleteAvatar: Handler<'userDeleteAvatar'> = async (req) => {
  await req.services.avatars.remove(actorOf(req));
  return { status: 204 };
};
