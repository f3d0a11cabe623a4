import { toUser } from '../../../convert/user.js';
import { loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const userGet: Handler<'userGet'> = async (req) => {
  const user = await loadUser(req, req.path.username);
  return { status: 200, body: toUser(user, req.auth.actor, req.config) };
};
