import { NotFound } from '../../../services/errors.js';
import { loadOrg, loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgIsPublicMember: Handler<'orgIsPublicMember'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const user = await loadUser(req, req.path.username);
  if (!(await req.services.members.isPublicMember(org, user))) throw new NotFound();
  return { status: 204 };
};
