import { toOrganization } from '../../../convert/org.js';
import { actorOf, loadOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgEdit: Handler<'orgEdit'> = async (req) => {
  const actor = actorOf(req);
  const { org, viewer } = await loadOrg(req, req.path.org);
  const b = req.body;
  const edited = await req.services.orgs.edit(org, viewer, {
    fullName: b.full_name,
    email: b.email,
    description: b.description,
    website: b.website,
    location: b.location,
    visibility: b.visibility,
    repoAdminChangeTeamAccess: b.repo_admin_change_team_access,
  });
  return { status: 200, body: toOrganization(edited, actor, req.config) };
};
