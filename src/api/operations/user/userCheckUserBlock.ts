import { NotFound } from '../../../services/errors.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCheckUserBlock: Handler<'userCheckUserBlock'> = async (req) => {
  const user = await req.services.users.byName(req.path.username);
  if (!user || !(await req.services.blocks.isBlocked(actorOf(req).id, user.id))) throw new NotFound();
  return { status: 204 };
};
