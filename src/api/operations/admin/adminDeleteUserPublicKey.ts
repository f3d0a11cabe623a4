import { loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const adminDeleteUserPublicKey: Handler<'adminDeleteUserPublicKey'> = async (req) => {
  const user = await loadUser(req, req.path.username);
  await req.services.keys.deleteUserKey(user, req.path.id);
  return { status: 204 };
};
