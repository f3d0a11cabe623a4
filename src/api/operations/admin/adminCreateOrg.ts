import { toOrganization } from '../../../convert/org.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const adminCreateOrg: Handler<'adminCreateOrg'> = async (req) => {
  const owner = await req.services.userAdmin.account(req.path.username);
  const b = req.body;
  const org = await req.services.orgs.create(owner, {
    username: b.username, fullName: b.full_name ?? undefined, description: b.description ?? undefined, email: b.email ?? undefined,
    location: b.location ?? undefined, website: b.website ?? undefined, visibility: b.visibility ?? undefined,
    repoAdminChangeTeamAccess: b.repo_admin_change_team_access ?? undefined,
  }, { byAdmin: true });
  return { status: 201, body: toOrganization(org, actorOf(req), req.config) };
};
