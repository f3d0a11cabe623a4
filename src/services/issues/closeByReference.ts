// Closing keywords (#38), as Gitea's services/issue/commit.go (UpdateIssuesCommit) and services/pull/merge.go
// (handleCloseCrossReferences): a commit whose message says `fixes #12` closes issue 12 when it is pushed
// to the default branch (`reopens #12` reopens it), and a merged pull request closes or reopens the issues
// its title, body and comments reference with a keyword. Both happen inside the transaction that records
// the push or the merge, which is written once per push or merge (docs/architecture.md, "The event spine"),
// so each close happens once however many processes share the database; and both go through
// IssueService.edit, the API's own close, so the timeline, counters, feeds, webhooks and notifications
// are those of a close by hand, done by the pusher or the merger.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { comments, issues, repositories, users, type IssueRow, type RepoRow, type UserRow } from '../../db/schema/index.js';
import type { RepoPermission } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { addFanOut } from '../events/record.js';
import { AccessService } from '../repos/access.js';
import { addCommitReferences, pushesWithRefs, type CommitReference } from './crossRefs.js';
import { canWriteIssue, IssueService } from './issues.js';
import { hasOpenDependencies } from './openDependencies.js';

type Target = { repo: RepoRow; owner: UserRow; perm: RepoPermission };

/**
 * Sets the issue's state to `closed` as `actor`, naming `commitSha`, unless it is so already (then nothing
 * is written: no second entry, event or webhook). An issue Gitea could not close is left as it is: one
 * with open dependencies (Gitea's ErrDependenciesLeft) or of an archived repository (anvil refuses every
 * change there).
 */
async function setState(deps: ServiceDeps, tx: Db, target: Target, issueId: number, actor: UserRow, closed: boolean, commitSha: string): Promise<void> {
  const [issue] = await tx.select().from(issues).where(eq(issues.id, issueId)).for('update');
  if (!issue || issue.isPull || issue.isClosed === closed || target.repo.isArchived) return;
  if (closed && (await hasOpenDependencies(tx, issue.id))) return;
  await new IssueService(deps).edit(target, issue, actor, { state: closed ? 'closed' : 'open' }, { tx, commitSha });
}

/** Gitea's canclose: the repository's owner or an administrator, a writer of the issues, or the issue's poster. */
const mayClose = (target: Target, issue: IssueRow, actor: UserRow) => actor.id === issue.posterId || canWriteIssue(target.perm, issue.isPull);

/**
 * The closing half of UpdateIssuesCommit, for one reference of a pushed commit (after its `commit_ref`
 * entry): only issues (never pull requests), only for a pusher who may close the issue, and only when the
 * commit reaches the branch the issue names (its `ref`) or, naming none, the repository's default branch.
 */
function actOnCommit(deps: ServiceDeps, tx: Db, pusher: UserRow, home: RepoRow, branch: string) {
  return async (r: CommitReference) => {
    if (r.action === 'none' || r.issue.isPull || !mayClose(r.target, r.issue, pusher)) return;
    const wanted = r.issue.ref ? r.issue.ref.replace(/^refs\/heads\//, '') : home.defaultBranch;
    if (branch !== wanted) return;
    await setState(deps, tx, r.target, r.issue.id, pusher, r.action === 'closes', r.commit.id);
  };
}

addFanOut(
  async (tx, event, deps) => {
    if (event.type !== 'push' || !event.ref.startsWith('refs/heads/') || event.repoId === undefined || !event.commits.length) return;
    if (!pushesWithRefs([event]).length) return;
    const [row] = await tx.select({ repo: repositories, owner: users }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId))
      .where(eq(repositories.id, event.repoId));
    const [pusher] = await tx.select().from(users).where(eq(users.id, event.actorId));
    // A pull mirror's sync is not someone's push (Gitea records no references for it and closes nothing).
    if (!row || !pusher || row.repo.isMirror) return;
    const branch = event.ref.slice('refs/heads/'.length);
    await addCommitReferences(deps, tx, pusher, row, event.commits, actOnCommit(deps, tx, pusher, row.repo, branch));
  },
  { quiet: (list) => pushesWithRefs(list).length === 0 },
);

/**
 * Gitea's handleCloseCrossReferences, in the transaction that records the merge of the pull request
 * `pull` (its issue row) by `merger` into commit `sha`: the references the pull request's title, body and
 * comments make with a keyword and that still stand (Gitea's ResolveCrossReferences: `closes`/`reopens`,
 * the latest per issue), each closing or reopening its issue as the merger, naming the merge commit,
 * whatever the base branch (Gitea has no base branch rule here). The keyword was kept when it was written
 * only if its writer could close the issue (crossRefs.ts); anvil also asks it of the merger now, where
 * Gitea closes in the merger's name even in a repository the merger cannot write.
 */
export async function closeReferencedByPull(deps: ServiceDeps, tx: Db, pull: IssueRow, merger: UserRow, sha: string): Promise<void> {
  const rows = await tx.select({ issueId: comments.issueId, action: comments.refAction }).from(comments)
    .where(and(eq(comments.refIssueId, pull.id), inArray(comments.refAction, ['closes', 'reopens'])))
    .orderBy(asc(comments.id));
  if (rows.length === 0) return;
  const latest = new Map<number, string>();
  for (const r of rows) latest.set(r.issueId, r.action);
  const found = await tx.select({ issue: issues, repo: repositories, owner: users }).from(issues)
    .innerJoin(repositories, eq(repositories.id, issues.repoId)).innerJoin(users, eq(users.id, repositories.ownerId))
    .where(inArray(issues.id, [...latest.keys()]));
  const byId = new Map(found.map((f) => [f.issue.id, f]));
  const access = new AccessService(deps);
  const perms = new Map<number, RepoPermission>();
  for (const [issueId, action] of latest) {
    const f = byId.get(issueId);
    if (!f) continue;
    let perm = perms.get(f.repo.id);
    if (!perm) perms.set(f.repo.id, (perm = await access.repoPermissionIn(tx, f.repo, f.owner, merger)));
    const target = { repo: f.repo, owner: f.owner, perm };
    if (!mayClose(target, f.issue, merger)) continue;
    await setState(deps, tx, target, issueId, merger, action === 'closes', sha);
  }
}
