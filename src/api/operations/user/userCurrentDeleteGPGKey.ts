import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentDeleteGPGKey: Handler<'userCurrentDeleteGPGKey'> = async (req) => {
  await req.services.gpgKeys.delete(actorOf(req), req.path.id);
  return { status: 204 };
};
