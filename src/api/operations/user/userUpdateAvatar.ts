import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userUpdateAvatar: Handler<'userUpdateAvatar'> = async (req) => {
  await req.services.avatars.upload(actorOf(req), req.body.image);
  return { status: 204 };
};
