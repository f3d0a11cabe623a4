import { loadOrg, loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgPublicizeMember: Handler<'orgPublicizeMember'> = async (req) => {
  const { org, viewer } = await loadOrg(req, req.path.org);
  const user = await loadUser(req, req.path.username);
  await req.services.members.setPublic(org, viewer, user, true);
  return { status: 204 };
};
