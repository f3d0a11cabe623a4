import { actorOf, loadAccount } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentPutFollow: Handler<'userCurrentPutFollow'> = async (req) => {
  const target = await loadAccount(req, req.path.username);
  await req.services.follows.follow(actorOf(req), target);
  return { status: 204 };
};
