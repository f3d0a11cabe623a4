import { toOrgPermissions } from '../../../convert/org.js';
import { NotFound } from '../../../services/errors.js';
import { loadOrg, loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgGetUserPermissions: Handler<'orgGetUserPermissions'> = async (req) => {
  const user = await loadUser(req, req.path.username);
  const { org } = await loadOrg(req, req.path.org);
  // Gitea also asks whether the organization is visible to the user asked about.
  if (!(await req.services.access.canSeeOwner(org, user))) throw new NotFound();
  return { status: 200, body: toOrgPermissions(await req.services.orgLookups.permissionsOf(org, user)) };
};
