import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import { atLeast, type AccessMode, type TeamRow, type Unit, type UserRow } from '../db/schema/index.js';
import { toOrganization } from './org.js';

type ApiTeam = components['schemas']['Team'];

/** `org` null leaves `organization` null, as Gitea's team lists do. */
export function toTeam(
  team: TeamRow,
  unitModes: Partial<Record<Unit, AccessMode>>,
  org: UserRow | null,
  viewer: UserRow | null,
  config: Config,
): ApiTeam {
  const granted = (Object.entries(unitModes) as Array<[Unit, AccessMode]>).filter(([, m]) => m !== 'none');
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    organization: org ? toOrganization(org, viewer, config) : null,
    can_create_org_repo: team.canCreateOrgRepo,
    includes_all_repositories: team.includesAllRepositories,
    // Teams made of per-unit levels report none, as current Gitea does; their units say what they grant.
    permission: atLeast(team.accessMode, 'admin') ? team.accessMode : 'none',
    units: granted.map(([u]) => u),
    units_map: Object.fromEntries(granted) as ApiTeam['units_map'],
    visibility: team.visibility,
  };
}
