import { loadAccount } from '../../load.js';
import type { Handler } from '../../types.js';

export const adminRenameUser: Handler<'adminRenameUser'> = async (req) => {
  const target = await loadAccount(req, req.path.username);
  await req.services.userAdmin.rename(target, req.body.new_username);
  return { status: 204 };
};
