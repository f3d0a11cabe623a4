import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentDeleteKey: Handler<'userCurrentDeleteKey'> = async (req) => {
  await req.services.keys.deleteUserKey(actorOf(req), req.path.id);
  return { status: 204 };
};
