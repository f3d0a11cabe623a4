import { actorOf, loadAccount } from '../../load.js';
import type { Handler } from '../../types.js';

export const adminDeleteUser: Handler<'adminDeleteUser'> = async (req) => {
  const target = await loadAccount(req, req.path.username);
  await req.services.userAdmin.delete(target, actorOf(req), req.query.purge === true);
  return { status: 204 };
};
