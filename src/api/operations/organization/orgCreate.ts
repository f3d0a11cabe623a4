import type { components } from '../../../../generated/openapi.js';
import { toOrganization } from '../../../convert/org.js';
import type { CreateOrgInput } from '../../../services/orgs/orgs.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export function createOrgInput(b: components['schemas']['CreateOrgOption']): CreateOrgInput {
  return {
    username: b.username,
    fullName: b.full_name ?? undefined,
    description: b.description ?? undefined,
    email: b.email ?? undefined,
    location: b.location ?? undefined,
    website: b.website ?? undefined,
    visibility: b.visibility ?? undefined,
    repoAdminChangeTeamAccess: b.repo_admin_change_team_access ?? undefined,
  };
}

export const orgCreate: Handler<'orgCreate'> = async (req) => {
  const actor = actorOf(req);
  const org = await req.services.orgs.create(actor, createOrgInput(req.body));
  return { status: 201, body: toOrganization(org, actor, req.config) };
};
