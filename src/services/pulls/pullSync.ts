// Pull requests follow their branches: after a repository's branches changed (push, diff patch, branch
// creation or deletion, merge), the stored statistics of its open pull requests are brought up to date,
// and so are those of other repositories whose head is one of its branches (a fork's pull request into
// its parent): their new head is fetched into refs/pull/N/head of their base first. A moved head is
// recorded as pull_request_sync in the base repository.
import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { issues, pullRequests, repositories, users, type PullRequestRow, type RepoRow, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { compareCommits } from '../../git/compare.js';
import { fetchLocal } from '../../git/fetch.js';
import { branchTipsOf, refTarget } from '../../git/refs.js';
import { recordEvent } from '../events/record.js';
import { inRepo } from '../events/scope.js';
import { isValidRefName } from '../names.js';
import { fromOtherRepo, headRefOf, statsOf, type PullEnds, type PullHost } from './pullTypes.js';

const touching = new WeakMap<Db, ReturnType<typeof prepareTouching>>();

function prepareTouching(db: Db) {
  const repo = sql.placeholder('repo');
  const open = and(or(eq(pullRequests.repoId, repo), eq(pullRequests.headRepoId, repo)), eq(pullRequests.merged, false), eq(issues.isClosed, false));
  return {
    // Most branch changes touch no open pull request: a narrow query says so (PGlite plans the wide join
    // below afresh on every call, about 4 ms even when it finds nothing, against 0.4 ms for this one).
    any: db.select({ id: pullRequests.id }).from(pullRequests).innerJoin(issues, eq(issues.id, pullRequests.issueId))
      .where(open).limit(1).prepare('any_open_pull_touching_repo'),
    all: db
      .select({ pull: pullRequests, index: issues.index, repo: repositories, owner: users })
      .from(pullRequests)
      .innerJoin(issues, eq(issues.id, pullRequests.issueId))
      .innerJoin(repositories, eq(repositories.id, pullRequests.repoId))
      .innerJoin(users, eq(users.id, repositories.ownerId))
      .where(open)
      .prepare('open_pulls_touching_repo'),
  };
}

/** The open pull requests whose base or head is repository `repo` (the queries built once per database). */
async function openPullsTouching(db: Db, repoId: number) {
  let q = touching.get(db);
  if (!q) touching.set(db, (q = prepareTouching(db)));
  if ((await q.any.execute({ repo: repoId })).length === 0) return [];
  return q.all.execute({ repo: repoId });
}

/**
 * The repository `repoId` (at `dir`) had its branches changed: one git call for the tips of its pull
 * requests' branches, and a comparison only for pull requests whose tips moved; then the pull requests
 * of other repositories whose head is here.
 */
export async function resyncRepo(pulls: PullHost, repoId: number, dir: string, actorId?: number): Promise<void> {
  // One prepared query for both kinds: this repository's open pull requests, and other repositories'
  // whose head is here (it runs after every branch change).
  const rows = await openPullsTouching(pulls.deps.db, repoId);
  const open = rows.filter((r) => r.pull.repoId === repoId);
  if (open.length) {
    const tips = await branchTipsOf(dir, [...new Set(open.flatMap(({ pull }) => [pull.baseBranch, pull.headBranch]))].filter(isValidRefName));
    for (const { pull, index } of open) {
      // A head in another repository is read from its refs/pull/N/head (kept by syncForkHeads).
      const headTip = fromOtherRepo(pull) ? await refTarget(dir, headRefOf(pull, index)) : tips.get(pull.headBranch);
      await syncOne(pulls, dir, pull, index, { baseTip: tips.get(pull.baseBranch), headTip }, actorId);
    }
  }
  await syncForkHeads(pulls, dir, rows.filter((r) => r.pull.repoId !== repoId), actorId);
}

/**
 * Each open pull request of another repository whose head is a branch of this repository (at `dir`)
 * fetches the branch's tip into its refs/pull/N/head, then its statistics follow. A head branch that is
 * gone leaves its pull request at the last head it had.
 */
async function syncForkHeads(
  pulls: PullHost, dir: string, rows: Array<{ pull: PullRequestRow; index: number; repo: RepoRow; owner: UserRow }>, actorId?: number,
): Promise<void> {
  for (const { pull, index, repo, owner } of rows) {
    const base = { repo, owner };
    const baseDir = pulls.dir(base);
    const ref = headRefOf(pull, index);
    try {
      await fetchLocal(baseDir, dir, [`+refs/heads/${pull.headBranch}:${ref}`]);
    } catch (err) {
      pulls.deps.log.info({ err: (err as Error).message, pull: pull.id }, 'head branch of a pull request from another repository not fetched');
      continue;
    }
    const [headTip, tips] = await Promise.all([refTarget(baseDir, ref), pulls.tips(base, [pull.baseBranch])]);
    await syncOne(pulls, baseDir, pull, index, { baseTip: tips.get(pull.baseBranch), headTip }, actorId);
  }
}

/**
 * Stores a pull request's statistics for the tips given when they moved, with the pull_request_sync event
 * of a moved head; `dir` is the base repository's. A head in the base repository also moves refs/pull/N/head.
 */
async function syncOne(pulls: PullHost, dir: string, pull: PullRequestRow, index: number, { baseTip, headTip }: PullEnds, actorId?: number): Promise<void> {
  if (!baseTip || !headTip || (baseTip === pull.baseSha && headTip === pull.headSha)) return;
  if (headTip !== pull.headSha && !fromOtherRepo(pull)) await pulls.keepHeadRef(dir, index, headTip);
  const stats = statsOf(baseTip, headTip, await compareCommits(dir, baseTip, headTip));
  await withTx(pulls.deps.db, async (tx) => {
    // Only the row still at the tips we compared from is updated (a concurrent resync may have won).
    const moved = await tx.update(pullRequests).set(stats)
      .where(and(eq(pullRequests.id, pull.id), eq(pullRequests.merged, false), eq(pullRequests.headSha, pull.headSha), eq(pullRequests.baseSha, pull.baseSha)))
      .returning({ id: pullRequests.id });
    // New commits on the head branch are a synchronize (Gitea's pull_request_sync); a moved base is not.
    if (moved.length && headTip !== pull.headSha && actorId !== undefined) {
      const repo = await pulls.repoRow(tx, pull.repoId);
      await recordEvent(pulls.deps, tx, { type: 'pull_request_sync', action: 'synchronized', issueId: pull.issueId, before: pull.headSha, after: headTip, ...inRepo(repo, actorId) });
    }
  });
}
