import { toGpgKey } from '../../../convert/gpgKey.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userVerifyGPGKey: Handler<'userVerifyGPGKey'> = async (req) => {
  const view = await req.services.gpgKeys.verify(actorOf(req), req.body.key_id, req.body.armored_signature);
  return { status: 200, body: toGpgKey(view) };
};
