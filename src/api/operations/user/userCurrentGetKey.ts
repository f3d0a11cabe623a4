import { toPublicKey } from '../../../convert/key.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentGetKey: Handler<'userCurrentGetKey'> = async (req) => {
  const me = actorOf(req);
  return { status: 200, body: toPublicKey(await req.services.keys.userKey(me, req.path.id), me, me, req.config) };
};
