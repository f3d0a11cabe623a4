import { actorOf, loadAccount } from '../../load.js';
import type { Handler } from '../../types.js';

export const userBlockUser: Handler<'userBlockUser'> = async (req) => {
  const actor = actorOf(req);
  const target = await loadAccount(req, req.path.username);
  await req.services.blocks.block(actor, actor, target, req.query.note ?? '');
  return { status: 204 };
};
