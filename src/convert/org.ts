import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';

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
