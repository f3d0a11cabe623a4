import { NotFound } from '../../../services/errors.js';
import { loadAccount } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCheckFollowing: Handler<'userCheckFollowing'> = async (req) => {
  const user = await loadAccount(req, req.path.username);
  const target = await loadAccount(req, req.path.target);
  if (!(await req.services.follows.isFollowing(user.id, target.id))) throw new NotFound();
  return { status: 204 };
};
