// A repository as the services hand it around: its row, its owner and the caller's permission. Its own
// file, below every service that takes one, so that naming the type imports no service.
import type { RepoRow, UserRow } from '../../db/schema/index.js';
import type { RepoPermission } from '../../permissions/repo.js';

export interface LoadedRepo {
  repo: RepoRow;
  owner: UserRow;
  perm: RepoPermission;
  /** Whether a transfer is pending (read with the repository by `load`; undefined where not read). */
  transferPending?: boolean;
}

/** A repository of a list, with its owner and the caller's permission (read in the list's own query). */
export interface RepoListRow {
  repo: RepoRow;
  owner: UserRow;
  perm: RepoPermission;
}
