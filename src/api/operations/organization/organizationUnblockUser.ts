import { actorOf, loadAccount, loadOwnedOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const organizationUnblockUser: Handler<'organizationUnblockUser'> = async (req) => {
  const { org } = await loadOwnedOrg(req, req.path.org);
  const target = await loadAccount(req, req.path.username);
  await req.services.blocks.unblock(actorOf(req), org, target);
  return { status: 204 };
};
