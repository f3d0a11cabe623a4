import { toGpgKey } from '../../../convert/gpgKey.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentGetGPGKey: Handler<'userCurrentGetGPGKey'> = async (req) => {
  return { status: 200, body: toGpgKey(await req.services.gpgKeys.get(actorOf(req), req.path.id)) };
};
