// Gitea's webhook payloads, built inside the recording transaction from the event and the rows it names
// (so they show the state of that moment, and a deleted comment or repository can still be described).
// They are API JSON, so they are built here, above the services, which reach them through
// ServiceDeps.payloads (`payloads` below; the entry points hand it to Services).
import { asc, eq, inArray } from 'drizzle-orm';
import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import { toComment, toIssue } from '../convert/issue.js';
import { requestedReviewers, toPullRequest } from '../convert/pull.js';
import { toPackage } from '../convert/package.js';
import { toRelease } from '../convert/release.js';
import { repoUrls, toRepository } from '../convert/repo.js';
import { iso } from '../convert/time.js';
import { toUser } from '../convert/user.js';
import { hookMessage } from '../convert/hookMessages.js';
import type { Db } from '../db/client.js';
import { attachments, comments, commitStatuses, issues, packages, packageVersions, pullReviews, releases, repositories, users, type HookRow, type RepoRow, type UserRow } from '../db/schema/index.js';
import { repoPermission } from '../permissions/repo.js';
import { loadIssueDetails } from '../services/issues/issueDetails.js';
import { openReviewRequests } from '../services/pulls/reviewRequests.js';
import { enabledUnits } from '../services/repos/access.js';
import type { BuiltPayload, Payloads } from '../services/events/payloadTypes.js';
import type { HookEventType, RecordedEvent } from '../services/events/types.js';
import { findJobs, findRuns } from '../services/actions/queries.js';
import { toRunWorkflow, toWorkflowJob, toWorkflowRun } from '../convert/actions.js';

type Schemas = components['schemas'];

export type { BuiltPayload };

/** X-Gitea-Event for each HookEventType (the sub-events of issues and pull requests share their group's). */
export function headerEvent(type: HookEventType): string {
  if (type === 'issue_comment' || type === 'pull_request_comment') return 'issue_comment';
  if (type.startsWith('issue')) return 'issues';
  // Gitea's names for submitted reviews; a review request is a pull_request event.
  if (type === 'pull_request_review_approved') return 'pull_request_approved';
  if (type === 'pull_request_review_rejected') return 'pull_request_rejected';
  if (type === 'pull_request_review_comment') return 'pull_request_comment';
  if (type.startsWith('pull_request')) return 'pull_request';
  return type;
}

/** Hooks see a repository as its owner does (Gitea converts with owner access). */
const ownerPerm = (repo: RepoRow) => repoPermission({
  signedIn: true, siteAdmin: false, restricted: false, owner: true, ownerVisible: true, repoPrivate: repo.isPrivate, teams: [], enabledUnits: enabledUnits(repo),
});

function repoJson(repo: RepoRow, owner: UserRow, config: Config): Schemas['Repository'] {
  return toRepository(repo, owner, ownerPerm(repo), owner, config);
}

/** A pull request's head repository when it is another one (a fork), as its owner sees it; null when it was deleted. */
async function headSide(tx: Db, pull: { repoId: number; headRepoId: number }) {
  if (pull.headRepoId === pull.repoId) return undefined;
  const [row] = await tx.select({ repo: repositories, owner: users }).from(repositories)
    .innerJoin(users, eq(users.id, repositories.ownerId)).where(eq(repositories.id, pull.headRepoId));
  return row ? { ...row, perm: ownerPerm(row.repo) } : null;
}

const zeroSha = (sha: string) => /^0+$/.test(sha);

/** Gitea's PackagePayload: the version as the package API shows it; no repository (the event is the owner's). */
async function packagePayload(tx: Db, e: Extract<RecordedEvent, { type: 'package' }>, config: Config): Promise<BuiltPayload | undefined> {
  const [row] = await tx.select({ pkg: packages, version: packageVersions }).from(packageVersions)
    .innerJoin(packages, eq(packages.id, packageVersions.packageId)).where(eq(packageVersions.id, e.versionId));
  if (!row) return undefined;
  const people = await tx.select().from(users).where(inArray(users.id, [row.pkg.ownerId, row.version.creatorId, e.actorId]));
  const byId = new Map(people.map((u) => [u.id, u]));
  const owner = byId.get(row.pkg.ownerId);
  const actor = byId.get(e.actorId);
  if (!owner || !actor) return undefined;
  const [linked] = row.pkg.repoId
    ? await tx.select({ repo: repositories, owner: users }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(eq(repositories.id, row.pkg.repoId))
    : [];
  const pkg = toPackage({
    ...row, owner, creator: byId.get(row.version.creatorId), repo: linked && { ...linked, perm: ownerPerm(linked.repo) },
  }, owner, config);
  return {
    event: 'package',
    body: { action: e.action, repository: null, package: pkg, sender: toUser(actor, owner, config) },
    summary: { title: `Package ${e.action}: ${pkg.name}:${pkg.version}`, text: '', url: pkg.html_url, actor: actor.name, repo: owner.name },
  };
}

export async function buildPayload(tx: Db, e: RecordedEvent, config: Config): Promise<BuiltPayload | undefined> {
  if (e.type === 'package') return packagePayload(tx, e, config);
  if (e.repoId === undefined) return undefined;
  const [row] = await tx.select({ repo: repositories, owner: users }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(eq(repositories.id, e.repoId));
  const [actor] = await tx.select().from(users).where(eq(users.id, e.actorId));
  if (!row || !actor) return undefined;
  const { repo, owner } = row;
  const repository = repoJson(repo, owner, config);
  const sender = toUser(actor, owner, config);
  const urls = repoUrls(config, owner.name, repo.name);
  const summary = (title: string, text = '', url = urls.html) => ({ title, text, url, actor: actor.name, repo: `${owner.name}/${repo.name}` });
  const base = { repository, sender };

  switch (e.type) {
    case 'push': {
      const branch = e.ref.replace(/^refs\/(heads|tags)\//, '');
      const commits = e.commits.map((c) => ({
        id: c.id, message: c.message, url: `${urls.html}/commit/${c.id}`,
        author: { name: c.author.name, email: c.author.email, username: '' },
        committer: { name: c.committer.name, email: c.committer.email, username: '' },
        verification: null, timestamp: c.committer.date, added: c.added, removed: c.removed, modified: c.modified,
      }));
      const compare = zeroSha(e.before) ? '' : `${urls.html}/compare/${e.before}...${e.after}`;
      return {
        event: 'push',
        body: { ref: e.ref, before: e.before, after: e.after, compare_url: compare, commits, total_commits: e.totalCommits, head_commit: commits[0] ?? null, pusher: sender, ...base },
        summary: summary(`[${repo.name}:${branch}] ${e.totalCommits} new commit${e.totalCommits === 1 ? '' : 's'}`, commits.map((c) => `${c.id.slice(0, 10)}: ${c.message.split('\n')[0]}`).join('\n'), compare || urls.html),
      };
    }
    case 'create':
      return {
        event: 'create',
        body: { ref: e.ref, ref_type: e.refType, sha: e.sha, ...base },
        summary: summary(`[${repo.name}] ${e.refType} ${e.ref} created`),
      };
    case 'delete':
      return {
        event: 'delete',
        body: { ref: e.ref, ref_type: e.refType, pusher_type: 'user', ...base },
        summary: summary(`[${repo.name}] ${e.refType} ${e.ref} deleted`),
      };
    case 'repository':
      return {
        event: 'repository',
        body: { action: e.action, ...base, organization: owner.type === 'Organization' ? toUser(owner, owner, config) : null },
        summary: summary(`[${owner.name}/${repo.name}] repository ${e.action}`),
      };
    case 'fork': {
      // As Gitea: `forkee` is the repository that was forked, `repository` the new fork.
      const [fork] = await tx.select({ repo: repositories, owner: users }).from(repositories).innerJoin(users, eq(users.id, repositories.ownerId)).where(eq(repositories.id, e.forkId));
      if (!fork) return undefined;
      return {
        event: 'fork',
        body: { forkee: repository, repository: repoJson(fork.repo, fork.owner, config), sender },
        summary: summary(`[${owner.name}/${repo.name}] forked to ${fork.owner.name}/${fork.repo.name}`, '', repoUrls(config, fork.owner.name, fork.repo.name).html),
      };
    }
    case 'wiki':
      return {
        event: 'wiki',
        body: { action: e.action, ...base, page: e.page, comment: '' },
        summary: summary(`[${repo.name}] wiki page '${e.page}' ${e.action}`, '', `${urls.html}/wiki/${encodeURIComponent(e.page)}`),
      };
    case 'release': {
      const [rel] = await tx.select().from(releases).where(eq(releases.id, e.releaseId));
      if (!rel) return undefined;
      const [publisher] = await tx.select().from(users).where(eq(users.id, rel.publisherId));
      const assets = await tx.select().from(attachments).where(eq(attachments.releaseId, rel.id)).orderBy(asc(attachments.id));
      const release = toRelease(rel, publisher, assets, urls, config);
      return {
        event: 'release',
        body: { action: e.action, release, ...base },
        summary: summary(`[${repo.name}] release ${e.action}: ${rel.tagName} ${rel.title}`.trimEnd(), rel.note, release.html_url),
      };
    }
    case 'status': {
      const [status] = await tx.select().from(commitStatuses).where(eq(commitStatuses.id, e.statusId));
      if (!status) return undefined;
      const c = e.commit;
      const commit = {
        id: c.id, message: c.message, url: `${urls.html}/commit/${c.id}`,
        author: { name: c.author.name, email: c.author.email, username: '' },
        committer: { name: c.committer.name, email: c.committer.email, username: '' },
        verification: null, timestamp: c.committer.date, added: [], removed: [], modified: [],
      };
      return {
        event: 'status',
        body: {
          commit, context: status.context, created_at: iso(status.createdAt), description: status.description, id: status.id,
          sha: status.sha, state: status.state, target_url: status.targetUrl, updated_at: iso(status.createdAt), ...base,
        },
        summary: summary(`[${repo.name}] commit ${status.sha.slice(0, 10)} ${status.context || 'status'}: ${status.state}`, status.description, status.targetUrl || `${urls.html}/commit/${status.sha}`),
      };
    }
    case 'workflow_job': {
      const { rows: [view] } = await findJobs(tx, { jobId: e.jobId, order: 'asc', limit: 1, offset: 0 });
      if (!view) return undefined;
      const job = toWorkflowJob(view, config);
      return {
        event: 'workflow_job',
        body: { action: e.action, workflow_job: job, ...base, organization: owner.type === 'Organization' ? toUser(owner, owner, config) : null },
        summary: summary(`[${repo.name}] job ${job.name} ${e.action}${job.conclusion ? `: ${job.conclusion}` : ''}`, '', job.html_url),
      };
    }
    case 'workflow_run': {
      const { rows: [view] } = await findRuns(tx, { runId: e.runId, limit: 1, offset: 0 });
      if (!view) return undefined;
      const run = toWorkflowRun(view, owner, config);
      return {
        event: 'workflow_run',
        body: {
          action: e.action, workflow: toRunWorkflow(view, config), workflow_run: run, ...base,
          organization: owner.type === 'Organization' ? toUser(owner, owner, config) : null,
        },
        summary: summary(`[${repo.name}] run #${run.run_number} ${run.display_title} ${e.action}${run.conclusion ? `: ${run.conclusion}` : ''}`, '', run.html_url),
      };
    }
    default:
      break;
  }

  // Issue and pull-request events.
  const [issue] = await tx.select().from(issues).where(eq(issues.id, e.issueId));
  if (!issue) return undefined;
  const details = (await loadIssueDetails(tx, [issue])).get(issue.id)!;
  const issueJson = toIssue(issue, details, owner, repo, owner, config);
  const mergerId = details.pull?.mergedById;
  const [merger] = mergerId ? await tx.select().from(users).where(eq(users.id, mergerId)) : [];
  const requested = issue.isPull ? await openReviewRequests(tx, [issue.id]) : undefined;
  const pull = issue.isPull && details.pull
    ? toPullRequest(
      issue, details.pull, details, { owner, repo, perm: ownerPerm(repo) }, owner, config, merger, requestedReviewers(requested!, issue.id, owner, config),
      await headSide(tx, details.pull),
    )
    : undefined;
  const kind = issue.isPull ? 'pull request' : 'issue';
  const subject = issue.isPull
    ? { number: issue.index, pull_request: pull, requested_reviewer: null, commit_id: '' }
    : { number: issue.index, issue: issueJson };
  const title = (what: string) => summary(`[${repo.name}] ${kind} ${what}: #${issue.index} ${issue.title}`, '', issueJson.html_url);
  switch (e.type) {
    case 'issues':
    case 'pull_request':
      return { event: headerEvent(e.type), body: { action: e.action, ...subject, ...(e.changes ? { changes: e.changes } : {}), ...base }, summary: title(e.action) };
    case 'issue_label':
    case 'pull_request_label':
      return { event: headerEvent(e.type), body: { action: e.action, ...subject, ...base }, summary: title('labels updated') };
    case 'issue_assign':
    case 'pull_request_assign':
      return { event: headerEvent(e.type), body: { action: e.action, ...subject, ...base }, summary: title(e.action) };
    case 'issue_milestone':
    case 'pull_request_milestone':
      return { event: headerEvent(e.type), body: { action: e.action, ...subject, ...base }, summary: title(e.action) };
    case 'pull_request_sync':
      return { event: 'pull_request', body: { action: 'synchronized', ...subject, ...base }, summary: title('synchronized') };
    case 'pull_request_review_approved':
    case 'pull_request_review_rejected':
    case 'pull_request_review_comment': {
      const [review] = await tx.select().from(pullReviews).where(eq(pullReviews.id, e.reviewId));
      const what = e.type === 'pull_request_review_approved' ? 'approved' : e.type === 'pull_request_review_rejected' ? 'changes requested' : 'reviewed';
      return {
        event: headerEvent(e.type),
        body: { action: 'reviewed', ...subject, review: { type: e.type, content: review?.body ?? '' }, ...base },
        summary: summary(`[${repo.name}] pull request ${what}: #${issue.index} ${issue.title}`, review?.body ?? '', issueJson.html_url),
      };
    }
    case 'pull_request_review_request': {
      const [reviewer] = e.reviewerId ? await tx.select().from(users).where(eq(users.id, e.reviewerId)) : [];
      return {
        event: 'pull_request',
        body: { action: e.action, ...subject, requested_reviewer: reviewer ? toUser(reviewer, owner, config) : null, ...base },
        summary: title(e.action === 'review_requested' ? 'review requested' : 'review request removed'),
      };
    }
    case 'issue_comment':
    case 'pull_request_comment': {
      const [c] = await tx.select().from(comments).where(eq(comments.id, e.commentId));
      if (!c) return undefined;
      const [poster] = await tx.select().from(users).where(eq(users.id, c.posterId));
      const comment = toComment(c, issue, poster, [], owner, repo, owner, config);
      return {
        event: 'issue_comment',
        body: { action: e.action, issue: issueJson, ...(pull ? { pull_request: pull } : {}), comment, ...(e.changes ? { changes: e.changes } : {}), is_pull: issue.isPull, ...base },
        summary: summary(`[${repo.name}] comment ${e.action} on ${kind} #${issue.index} ${issue.title}`, c.body, comment.html_url),
      };
    }
  }
  return undefined;
}

/** The payload of `POST .../hooks/{id}/tests`: a push of the default branch's tip, as Gitea sends it. */
export function testPushPayload(repo: RepoRow, owner: UserRow, actor: UserRow, tip: { id: string; message: string; date: Date } | undefined, config: Config): BuiltPayload {
  const urls = repoUrls(config, owner.name, repo.name);
  const repository = repoJson(repo, owner, config);
  const sender = toUser(actor, owner, config);
  const who = { name: actor.fullName || actor.name, email: actor.email, username: actor.name };
  const commit = tip
    ? { id: tip.id, message: tip.message, url: `${urls.html}/commit/${tip.id}`, author: who, committer: who, verification: null, timestamp: iso(tip.date), added: [], removed: [], modified: [] }
    : undefined;
  return {
    event: 'push',
    body: {
      ref: `refs/heads/${repo.defaultBranch}`, before: tip?.id ?? '', after: tip?.id ?? '', compare_url: '',
      commits: commit ? [commit] : [], total_commits: commit ? 1 : 0, head_commit: commit ?? null, pusher: sender, repository, sender,
    },
    summary: { title: `[${repo.name}:${repo.defaultBranch}] test delivery`, text: tip?.message ?? '', url: urls.html, actor: actor.name, repo: `${owner.name}/${repo.name}` },
  };
}

/** The body as sent: JSON, or `payload=<json>` for form hooks. */
export function encodeBody(hook: Pick<HookRow, 'type' | 'config' | 'contentType'>, built: Pick<BuiltPayload, 'body' | 'summary'>): string {
  const json = JSON.stringify(hookMessage(hook, built.body, built.summary));
  return hook.contentType === 'form' ? `payload=${encodeURIComponent(json)}` : json;
}

/** What the services are handed (ServiceDeps.payloads). */
export const payloads: Payloads = { build: buildPayload, testPush: testPushPayload, encode: encodeBody };
