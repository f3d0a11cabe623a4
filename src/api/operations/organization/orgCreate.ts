import { toOrganization } from '../../../convert/org.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgCreate: Handler<'orgCreate'> = async (req) => {
  const actor = actorOf(req);
  const b = req.body;
  const org = await req.services.orgs.create(actor, {
    username: b.username,
    fullName: b.full_name ?? undefined,
    description: b.description ?? undefined,
    email: b.email ?? undefined,
    location: b.location ?? undefined,
    website: b.website ?? undefined,
    visibility: b.visibility ?? undefined,
    repoAdminChangeTeamAccess: b.repo_admin_change_team_access ?? undefined,
  });
  return { status: 201, body: toOrganization(org, actor, req.config) };
};
