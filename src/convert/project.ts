import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { ProjectColumnRow, ProjectRow, UserRow } from '../db/schema/index.js';
import { ghost } from './ghost.js';
import { iso, isoOrNull } from './time.js';
import { toUser } from './user.js';

type Schemas = components['schemas'];

/** An organization's project; `counts` are the issues on it the viewer can see. */
export function toProject(
  p: ProjectRow, org: UserRow, creator: UserRow | undefined, counts: { open: number; closed: number }, viewer: UserRow | null, config: Config,
): Schemas['Project'] {
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    owner_id: org.id,
    repo_id: 0,
    creator: toUser(creator ?? ghost, viewer, config),
    creator_id: p.creatorId,
    state: p.isClosed ? 'closed' : 'open',
    is_closed: p.isClosed,
    template_type: p.templateType,
    card_type: p.cardType,
    type: 'organization',
    num_issues: counts.open + counts.closed,
    num_open_issues: counts.open,
    num_closed_issues: counts.closed,
    html_url: `${config.rootUrl}${encodeURIComponent(org.name)}/-/projects/${p.id}`,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    closed_at: p.isClosed ? isoOrNull(p.closedAt) : null,
  };
}

export function toProjectColumn(c: ProjectColumnRow, creator: UserRow | undefined, viewer: UserRow | null, config: Config): Schemas['ProjectColumn'] {
  return {
    id: c.id,
    project_id: c.projectId,
    title: c.title,
    color: c.color,
    default: c.isDefault,
    sorting: c.sorting,
    creator: toUser(creator ?? ghost, viewer, config),
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}
