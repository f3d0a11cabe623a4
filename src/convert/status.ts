import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { StatusService, StatusView } from '../services/git/statuses.js';
import type { LoadedRepo } from '../services/repos/loadedRepo.js';
import { toRepository } from './repo.js';
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

/** A ref's combined status: the latest status of each context (a page of them) and the state over all. */
export function toCombinedStatus(
  combined: Awaited<ReturnType<StatusService['combined']>>, loaded: LoadedRepo, repoApi: string, viewer: UserRow | null, config: Config,
): Schemas['CombinedStatus'] {
  const commitUrl = `${repoApi}/commits/${combined.sha}`;
  return {
    state: combined.state as 'success',
    sha: combined.sha,
    total_count: combined.total,
    statuses: combined.rows.map((s) => toCommitStatus(s, repoApi, viewer, config)),
    repository: toRepository(loaded.repo, loaded.owner, loaded.perm, viewer, config),
    commit_url: commitUrl,
    url: `${commitUrl}/status`,
  };
}
