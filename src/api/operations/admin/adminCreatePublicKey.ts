import { toPublicKey } from '../../../convert/key.js';
import { loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const adminCreatePublicKey: Handler<'adminCreatePublicKey'> = async (req) => {
  const user = await loadUser(req, req.path.username);
  const key = await req.services.keys.addUserKey(user, { title: req.body.title, key: req.body.key });
  return { status: 201, body: toPublicKey(key, user, req.auth.actor, req.config) };
};
