import { toGpgKey } from '../../../convert/gpgKey.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentPostGPGKey: Handler<'userCurrentPostGPGKey'> = async (req) => {
  const b = req.body;
  const view = await req.services.gpgKeys.add(actorOf(req), { armoredPublicKey: b.armored_public_key, armoredSignature: b.armored_signature ?? undefined });
  return { status: 201, body: toGpgKey(view) };
};
