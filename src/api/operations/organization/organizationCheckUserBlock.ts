import { NotFound } from '../../../services/errors.js';
import { loadOwnedOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const organizationCheckUserBlock: Handler<'organizationCheckUserBlock'> = async (req) => {
  const { org } = await loadOwnedOrg(req, req.path.org);
  const user = await req.services.users.byName(req.path.username);
  if (!user || !(await req.services.blocks.isBlocked(org.id, user.id))) throw new NotFound();
  return { status: 204 };
};
