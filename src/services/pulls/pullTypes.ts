// What the pull request verbs (pullEdit.ts, pullSync.ts, forkPulls.ts) share with PullService, below
// all of them: the shapes of a pull request, pure helpers, and PullHost, the part of PullService a verb
// is handed.
import type { Db } from '../../db/client.js';
import type { IssueRow, PullRequestRow, RepoRow } from '../../db/schema/index.js';
import type { Comparison } from '../../git/compare.js';
import type { ServiceDeps } from '../context.js';
import type { IssueService } from '../issues/issues.js';
import type { AccessService } from '../repos/access.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';

export interface PullView {
  issue: IssueRow;
  pull: PullRequestRow;
}

/** A pull request after a change, with its repository row re-read (the counters moved). */
export interface ChangedPull extends PullView {
  repo: RepoRow;
}

/** The two tips a pull request compares, as the base repository has them (absent: the branch is gone). */
export interface PullEnds {
  baseTip?: string;
  headTip?: string;
}

/** Whether the head branch is in another repository than the base (a fork, or the base's parent). */
export const fromOtherRepo = (pull: Pick<PullRequestRow, 'repoId' | 'headRepoId'>) => pull.headRepoId !== pull.repoId;

/** The ref of the base repository that holds the head: the branch itself, or refs/pull/N/head fetched from the other repository. */
export const headRefOf = (pull: PullRequestRow, index: number) => (fromOtherRepo(pull) ? `refs/pull/${index}/head` : `refs/heads/${pull.headBranch}`);

/** The stored statistics for a comparison of `baseTip` and `headTip`. */
export const statsOf = (baseTip: string, headTip: string, c: Comparison) => ({
  baseSha: baseTip,
  headSha: headTip,
  mergeBase: c.mergeBase,
  additions: c.additions,
  deletions: c.deletions,
  changedFiles: c.changedFiles,
  mergeable: c.mergeable,
});

/** The part of PullService the verbs use (PullService implements it). */
export interface PullHost {
  readonly deps: ServiceDeps;
  readonly issues: IssueService;
  readonly access: AccessService;
  dir(loaded: Pick<LoadedRepo, 'repo' | 'owner'>): string;
  ends(loaded: Pick<LoadedRepo, 'repo' | 'owner'>, view: PullView, base?: string): Promise<PullEnds>;
  tips(loaded: Pick<LoadedRepo, 'repo' | 'owner'>, names: string[]): Promise<Map<string, string>>;
  keepHeadRef(dir: string, index: number, headTip: string): Promise<void>;
  resync(loaded: LoadedRepo, pull: PullRequestRow, ends: PullEnds, base?: string): Promise<ReturnType<typeof statsOf> | undefined>;
  load(loaded: LoadedRepo, index: number): Promise<PullView>;
  repoRow(tx: Db, id: number): Promise<RepoRow>;
  requireNoOpenPull(tx: Db, repoId: number, headRepoId: number, head: string, base: string, except?: number): Promise<void>;
}
