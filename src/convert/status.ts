import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { StatusView } from '../services/git/statuses.js';
import { ghost } from './ghost.js';
import { iso } from './time.js';
import { toUser } from './user.js';

type Schemas = components['schemas'];

/** Gitea shows a status's per-commit number as `id`, and its creation time as both times (statuses are never edited). */
export function toCommitStatus({ row, creator }: StatusView, repoApi: string, viewer: UserRow | null, config: Config): Schemas['CommitStatus'] {
  return {
    id: row.index,
    status: row.state as Schemas['CommitStatus']['status'],
    target_url: row.targetUrl,
    description: row.description,
    url: `${repoApi}/statuses/${encodeURIComponent(row.sha)}`,
    context: row.context,
    creator: toUser(creator ?? ghost, viewer, config),
    created_at: iso(row.createdAt),
    updated_at: iso(row.createdAt),
  };
}
