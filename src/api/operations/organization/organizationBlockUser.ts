import { actorOf, loadAccount, loadOwnedOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const organizationBlockUser: Handler<'organizationBlockUser'> = async (req) => {
  const { org } = await loadOwnedOrg(req, req.path.org);
  const target = await loadAccount(req, req.path.username);
  await req.services.blocks.block(actorOf(req), org, target, req.query.note ?? '');
  return { status: 204 };
};
