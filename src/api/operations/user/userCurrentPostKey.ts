import { toPublicKey } from '../../../convert/key.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentPostKey: Handler<'userCurrentPostKey'> = async (req) => {
  const me = actorOf(req);
  const key = await req.services.keys.addUserKey(me, { title: req.body.title, key: req.body.key });
  return { status: 201, body: toPublicKey(key, me, me, req.config) };
};
