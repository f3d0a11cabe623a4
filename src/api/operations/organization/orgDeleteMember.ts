import { loadOrg, loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgDeleteMember: Handler<'orgDeleteMember'> = async (req) => {
  const { org, viewer } = await loadOrg(req, req.path.org);
  const user = await loadUser(req, req.path.username);
  await req.services.members.remove(org, viewer, user);
  return { status: 204 };
};
