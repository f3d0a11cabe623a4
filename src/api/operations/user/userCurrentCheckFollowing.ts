import { NotFound } from '../../../services/errors.js';
import { actorOf, loadAccount } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentCheckFollowing: Handler<'userCurrentCheckFollowing'> = async (req) => {
  const target = await loadAccount(req, req.path.username);
  if (!(await req.services.follows.isFollowing(actorOf(req).id, target.id))) throw new NotFound();
  return { status: 204 };
};
