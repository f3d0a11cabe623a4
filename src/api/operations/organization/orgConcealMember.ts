import { loadOrg, loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgConcealMember: Handler<'orgConcealMember'> = async (req) => {
  const { org, viewer } = await loadOrg(req, req.path.org);
  const user = await loadUser(req, req.path.username);
  await req.services.members.setPublic(org, viewer, user, false);
  return { status: 204 };
};
