import { actorOf, loadAccount } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentDeleteFollow: Handler<'userCurrentDeleteFollow'> = async (req) => {
  const target = await loadAccount(req, req.path.username);
  await req.services.follows.unfollow(actorOf(req), target);
  return { status: 204 };
};
