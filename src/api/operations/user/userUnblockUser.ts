import { actorOf, loadAccount } from '../../load.js';
import type { Handler } from '../../types.js';

export const userUnblockUser: Handler<'userUnblockUser'> = async (req) => {
  const actor = actorOf(req);
  const target = await loadAccount(req, req.path.username);
  await req.services.blocks.unblock(actor, actor, target);
  return { status: 204 };
};
