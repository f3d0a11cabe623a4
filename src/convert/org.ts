import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { OrgPermissions } from '../services/orgs/lookups.js';

type ApiOrganization = components['schemas']['Organization'];

/** An organization; its e-mail is shown to signed-in callers only (Gitea hides it from anonymous ones). */
export function toOrganization(org: UserRow, viewer: UserRow | null, config: Config): ApiOrganization {
  return {
    id: org.id,
    name: org.name,
    username: org.name,
    full_name: org.fullName,
    description: org.description,
    email: viewer ? org.email : '',
    location: org.location,
    website: org.website,
    avatar_url: `${config.rootUrl}avatars/${org.id}`,
    visibility: org.visibility,
    repo_admin_change_team_access: org.repoAdminChangeTeamAccess,
  };
}

/** What a user may do in an organization (GET /users/{username}/orgs/{org}/permissions). */
export function toOrgPermissions(p: OrgPermissions): components['schemas']['OrganizationPermissions'] {
  return {
    can_create_repository: p.canCreateRepository,
    can_read: p.canRead,
    can_write: p.canWrite,
    is_admin: p.isAdmin,
    is_owner: p.isOwner,
  };
}
