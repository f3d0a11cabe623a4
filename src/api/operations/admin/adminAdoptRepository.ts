import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const adminAdoptRepository: Handler<'adminAdoptRepository'> = async (req) => {
  await req.services.unadopted.adopt(actorOf(req), req.path.owner, req.path.repo);
  return { status: 204 };
};
