// Pull requests whose head is a branch of another repository: a fork of the base, or the base's parent
// (Gitea's parseCompareInfo accepts those two, not sibling forks). The head's commits are fetched into
// the base repository as refs/pull/N/head, so merging, diffs, files and commits work from the base alone;
// a push to the head's repository fetches the new tip there again (pullSync.ts). Deleting the head's
// repository closes its open pull requests elsewhere, as Gitea's CloseRepoBranchesPulls does.
import { and, eq, inArray, ne, or } from 'drizzle-orm';
import { comments, issueLabels, issues, pullAutoMerges, pullRequests, repositories, users, type PullRequestRow, type UserRow } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { canRead } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { NotFound } from '../errors.js';
import { recordEvent } from '../events/record.js';
import { inRepo, issueContent } from '../events/scope.js';
import { recountLabels, recountMilestones, recountRepoIssues } from '../issues/counters.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { fromOtherRepo, type PullHost } from './pullTypes.js';

/**
 * The head of a new pull request (or of a look-up by branches): `branch` of the base repository, or
 * `owner:branch` / `owner/repo:branch`. Another owner's repository must be their fork of the base or the
 * base's parent, and its code readable by the caller (404 otherwise; a look-up checks no permission, the
 * base's read permission covers its pull requests). `side` is undefined when the head is the base itself.
 */
export async function resolveHead(
  pulls: PullHost, loaded: LoadedRepo, actor: UserRow | null, head: string, opts: { lookUp?: boolean } = {},
): Promise<{ side?: LoadedRepo; branch: string }> {
  const i = head.indexOf(':');
  if (i < 0) return { branch: head };
  const who = head.slice(0, i).toLowerCase();
  const branch = head.slice(i + 1);
  const slash = who.indexOf('/');
  const ownerName = slash < 0 ? who : who.slice(0, slash);
  const repoName = slash < 0 ? undefined : who.slice(slash + 1);
  if (ownerName === loaded.owner.lowerName && (repoName === undefined || repoName === loaded.repo.lowerName)) return { branch };
  const related = or(eq(repositories.forkId, loaded.repo.id), loaded.repo.forkId != null ? eq(repositories.id, loaded.repo.forkId) : undefined);
  const [found] = await pulls.deps.db
    .select({ repo: repositories, owner: users })
    .from(repositories)
    .innerJoin(users, eq(users.id, repositories.ownerId))
    .where(and(eq(users.lowerName, ownerName), repoName !== undefined ? eq(repositories.lowerName, repoName) : undefined, related))
    .limit(1);
  if (!found) throw new NotFound();
  const perm = await pulls.access.repoPermission(found.repo, found.owner, actor);
  if (!opts.lookUp && !canRead(perm, 'repo.code')) throw new NotFound();
  return { side: { ...found, perm }, branch };
}

/** The repository of a pull request's head with `actor`'s permission on it (undefined when it was deleted). */
export async function headRepoOf(pulls: PullHost, loaded: LoadedRepo, pull: PullRequestRow, actor: UserRow | null): Promise<LoadedRepo | undefined> {
  if (!fromOtherRepo(pull)) return loaded;
  return (await pulls.access.reposById([pull.headRepoId], actor)).get(pull.headRepoId);
}

/**
 * Inside the deletion of repository `repoId`: its open pull requests into other repositories are closed
 * (with their close comment, their scheduled merges removed, the counters and the pull_request closed event).
 */
export async function closePullsFromRepo(deps: ServiceDeps, tx: Db, repoId: number, actorId: number): Promise<void> {
  const open = await tx
    .select({ issue: issues, pull: pullRequests, repo: repositories })
    .from(pullRequests)
    .innerJoin(issues, eq(issues.id, pullRequests.issueId))
    .innerJoin(repositories, eq(repositories.id, pullRequests.repoId))
    .where(and(eq(pullRequests.headRepoId, repoId), ne(pullRequests.repoId, repoId), eq(pullRequests.merged, false), eq(issues.isClosed, false)));
  if (open.length === 0) return;
  const now = new Date();
  const issueIds = open.map((o) => o.issue.id);
  await tx.update(issues).set({ isClosed: true, closedAt: now, updatedAt: now }).where(inArray(issues.id, issueIds));
  await tx.delete(pullAutoMerges).where(inArray(pullAutoMerges.pullId, open.map((o) => o.pull.id)));
  await tx.insert(comments).values(open.map(({ issue }) => ({ issueId: issue.id, repoId: issue.repoId, posterId: actorId, type: 'close' as const })));
  for (const repoIdOfBase of new Set(open.map((o) => o.repo.id))) await recountRepoIssues(tx, repoIdOfBase);
  await recountMilestones(tx, open.map((o) => o.issue.milestoneId));
  const labels = await tx.select({ id: issueLabels.labelId }).from(issueLabels).where(inArray(issueLabels.issueId, issueIds));
  await recountLabels(tx, [...new Set(labels.map((l) => l.id))]);
  for (const { issue, repo } of open) {
    await recordEvent(deps, tx, {
      type: 'pull_request', action: 'closed', issueId: issue.id, ...inRepo(repo, actorId),
      activity: { opType: 'close_pull_request', issueId: issue.id, content: issueContent(issue.index, issue.title) },
    });
  }
}
