// The notification fan-out: for an issue or pull-request event, the threads of the people who follow
// it, written in the event's transaction. Who: the repository's watchers, the issue's subscribers and
// participants (poster, assignees, commenters, users mentioned in its body or a comment), never the
// actor, never someone who unsubscribed from the issue, only those who can read it. One thread per
// user and subject: an existing one is updated (a read thread becomes unread and points at the new
// comment; an unread or pinned one keeps its status and its first unread comment).
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  comments, issueMentions, issues, notifications, repositories, teamMembers, teams, users, type IssueRow, type RepoRow, type UserRow,
} from '../../db/schema/index.js';
import { canRead } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { addFanOut, type Prefetch } from '../events/record.js';
import type { DomainEvent, RecordedEvent } from '../events/types.js';
import { AccessService } from '../repos/access.js';
import { mentionedNames } from './mentions.js';
import { rowsOf } from '../../db/raw.js';
import { rowFromJson } from '../../db/jsonRows.js';

/** Gitea leaves the repository's watchers out of a work-in-progress pull request's notifications. */
const workInProgress = /^\s*(?:\[wip\]|wip:|wip\b)/i;

/** Records the users `text` mentions as participants of the issue; returns those mentioned for the first time. */
async function recordMentions(tx: Db, issueId: number, text: string): Promise<number[]> {
  const names = mentionedNames(text);
  if (names.length === 0) return [];
  const found = await tx.select({ id: users.id }).from(users).where(and(inArray(users.lowerName, names), eq(users.type, 'User')));
  if (found.length === 0) return [];
  const added = await tx
    .insert(issueMentions)
    .values(found.map((u) => ({ issueId, userId: u.id })))
    .onConflictDoNothing()
    .returning({ userId: issueMentions.userId });
  return added.map((a) => a.userId);
}

/**
 * What the fan-out reads for the events of one recording, asked in the statement that records them
 * (record.ts's prefetch): each issue with the parts of its followers, and each new comment's body.
 * The followers come as parts so the work-in-progress rule stays here: the repository's watchers, the
 * issue's other followers (subscribers, commenters, assignees, mentioned users, the poster) and those
 * who unsubscribed. Mentions the fan-out records afterwards are added to `others` as it goes.
 */
interface IssueRead {
  issue: IssueRow;
  watchers: number[];
  others: number[];
  optedOut: number[];
}
interface Reads {
  issues: Map<number, IssueRead>;
  comments: Map<number, string>;
}
const readsInTx = new WeakMap<Db, Reads>();

/** The events whose threads the fan-out writes, as onIssueEvent's switch lets them through. */
function reachesThreads(e: DomainEvent): boolean {
  if (!('issueId' in e) || e.repoId === undefined) return false;
  switch (e.type) {
    case 'issues':
    case 'pull_request':
      return e.action !== 'edited';
    case 'issue_comment':
    case 'pull_request_comment':
      return e.action === 'created';
    case 'issue_assign':
    case 'pull_request_assign':
      return e.action === 'assigned';
    case 'pull_request_sync':
    case 'pull_request_review_approved':
    case 'pull_request_review_rejected':
    case 'pull_request_review_comment':
      return true;
    case 'pull_request_review_request':
      return e.action === 'review_requested' && !!e.reviewerId;
    default:
      return false;
  }
}

const idList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

function prefetchThreads(list: DomainEvent[], tx: Db, deps: ServiceDeps): Prefetch | undefined {
  if (tx === deps.db) return undefined;
  const reaching = list.filter(reachesThreads) as Array<DomainEvent & { issueId: number; commentId?: number }>;
  if (reaching.length === 0) return undefined;
  const issueIds = [...new Set(reaching.map((e) => e.issueId))];
  const commentIds = [...new Set(reaching.flatMap((e) => (e.type === 'issue_comment' || e.type === 'pull_request_comment') && e.commentId ? [e.commentId] : []))];
  const ids = (q: SQL) => sql`(select coalesce(json_agg(x.user_id), '[]'::json) from (${q}) x(user_id))`;
  return {
    read: sql`select json_build_object(
      'issues', (select coalesce(json_agg(json_build_object(
        'issue', row_to_json(i),
        'watchers', ${ids(sql`select user_id from repo_watches where repo_id = i.repo_id`)},
        'others', ${ids(sql`select user_id from issue_watches where issue_id = i.id and is_watching
          union select poster_id from comments where issue_id = i.id and type = 'comment'
          union select user_id from issue_assignees where issue_id = i.id
          union select user_id from issue_mentions where issue_id = i.id
          union select i.poster_id`)},
        'optedOut', ${ids(sql`select user_id from issue_watches where issue_id = i.id and not is_watching`)})), '[]'::json)
        from ${issues} i where i.id in (${idList(issueIds)})),
      'comments', ${commentIds.length
        ? sql`(select coalesce(json_agg(json_build_array(c.id, c.body)), '[]'::json) from ${comments} c where c.id in (${idList(commentIds)}))`
        : sql`'[]'::json`})`,
    seed: (t, value) => {
      const v = value as { issues: Array<{ issue: Record<string, unknown>; watchers: number[]; others: number[]; optedOut: number[] }>; comments: Array<[number, string]> };
      readsInTx.set(t, {
        issues: new Map(v.issues.map((r) => [Number(r.issue.id), { ...r, issue: rowFromJson(issues, r.issue) }])),
        comments: new Map(v.comments.map(([id, body]) => [Number(id), body])),
      });
    },
  };
}

/** The followers from the statement's read: as the query below would answer now. */
function followersRead(read: IssueRead): number[] {
  const { issue } = read;
  const all = new Set([...(issue.isPull && workInProgress.test(issue.title) ? [] : read.watchers), ...read.others].map(Number));
  for (const id of read.optedOut) all.delete(Number(id));
  return [...all];
}

/** Everyone who follows the issue, before the opt-outs and the read check. */
async function followers(tx: Db, issue: IssueRow): Promise<number[]> {
  const watchers = issue.isPull && workInProgress.test(issue.title)
    ? sql``
    : sql`select user_id from repo_watches where repo_id = ${issue.repoId} union `;
  const rows = await tx.execute<{ user_id: string | number }>(sql`
    ${watchers}select user_id from issue_watches where issue_id = ${issue.id} and is_watching
    union select poster_id from comments where issue_id = ${issue.id} and type = 'comment'
    union select user_id from issue_assignees where issue_id = ${issue.id}
    union select user_id from issue_mentions where issue_id = ${issue.id}
    union select ${issue.posterId}::bigint
    except select user_id from issue_watches where issue_id = ${issue.id} and not is_watching`);
  return rowsOf<{ user_id: string | number }>(rows).map((r) => Number(r.user_id));
}

/** The recipients who can read the issue (issues unit) or pull request (pulls unit). */
async function readers(tx: Db, deps: ServiceDeps, repo: RepoRow, isPull: boolean, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const [owner] = await tx.select().from(users).where(eq(users.id, repo.ownerId));
  if (!owner) return [];
  const people: UserRow[] = await tx.select().from(users).where(inArray(users.id, ids));
  const access = new AccessService(deps);
  const out: number[] = [];
  for (const p of people) {
    if (p.type !== 'User' || p.prohibitLogin) continue;
    const perm = await access.repoPermissionIn(tx, repo, owner, p);
    if (canRead(perm, isPull ? 'repo.pulls' : 'repo.issues')) out.push(p.id);
  }
  return out;
}

/** Creates or updates the threads of `userIds` about `issue`. */
export async function notifyIssue(tx: Db, issue: IssueRow, userIds: number[], actorId: number, commentId: number | null, at: Date): Promise<void> {
  if (userIds.length === 0) return;
  const n = notifications;
  await tx
    .insert(n)
    .values(userIds.map((userId) => ({
      userId, repoId: issue.repoId, subjectType: issue.isPull ? 'Pull' as const : 'Issue' as const, issueId: issue.id,
      commentId, status: 'unread' as const, updatedBy: actorId, createdAt: at, updatedAt: at,
    })))
    .onConflictDoUpdate({
      target: [n.userId, n.issueId],
      targetWhere: sql`issue_id is not null`,
      set: {
        status: sql`case when ${n.status} = 'read' then 'unread' else ${n.status} end`,
        commentId: sql`case when ${n.status} = 'read' then excluded.comment_id else ${n.commentId} end`,
        updatedBy: sql`excluded.updated_by`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

export async function onIssueEvent(tx: Db, e: RecordedEvent, deps: ServiceDeps): Promise<void> {
  if (!('issueId' in e) || e.repoId === undefined) return;
  let commentId: number | null = null;
  let text: string | undefined;
  let only: number[] | undefined;
  switch (e.type) {
    case 'issues':
    case 'pull_request':
      if (e.action === 'edited') {
        // An edit tells only the people it mentions for the first time.
        const [issue] = await tx.select({ body: issues.body }).from(issues).where(eq(issues.id, e.issueId));
        only = await recordMentions(tx, e.issueId, issue?.body ?? '');
        if (only.length === 0) return;
      }
      break;
    case 'issue_comment':
    case 'pull_request_comment': {
      if (e.action !== 'created') return;
      commentId = e.commentId;
      const read = readsInTx.get(tx)?.comments.get(e.commentId);
      if (read !== undefined) text = read;
      else {
        const [c] = await tx.select({ body: comments.body }).from(comments).where(eq(comments.id, e.commentId));
        text = c?.body ?? '';
      }
      break;
    }
    case 'issue_assign':
    case 'pull_request_assign':
      if (e.action !== 'assigned') return;
      only = [e.assigneeId];
      break;
    case 'pull_request_sync':
      break;
    // A submitted review tells the pull request's followers; a review request the requested user.
    case 'pull_request_review_approved':
    case 'pull_request_review_rejected':
    case 'pull_request_review_comment':
      break;
    case 'pull_request_review_request':
      if (e.action !== 'review_requested' || !e.reviewerId) return;
      only = [e.reviewerId];
      break;
    default:
      return;
  }
  const read = readsInTx.get(tx)?.issues.get(e.issueId);
  const issue = read?.issue ?? (await tx.select().from(issues).where(eq(issues.id, e.issueId)))[0];
  if (!issue) return;
  if (e.action === 'opened') text = issue.body;
  if (text !== undefined) {
    const added = await recordMentions(tx, issue.id, text);
    read?.others.push(...added);
  }
  const candidates = (only ?? (read ? followersRead(read) : await followers(tx, issue))).filter((id) => id !== e.actorId);
  if (candidates.length === 0) return;
  const [repo] = await tx.select().from(repositories).where(eq(repositories.id, e.repoId));
  if (!repo) return;
  const recipients = await readers(tx, deps, repo, issue.isPull, [...new Set(candidates)]);
  await notifyIssue(tx, issue, recipients, e.actorId, commentId, e.createdAt);
}

/**
 * What onIssueEvent does for a new issue (not a pull request) that `actorId` opens with `body` in a
 * repository owned by `ownerId`, written by the statement that creates the issue (issues/createAlone.ts),
 * or false when that statement cannot: the body mentions someone (the mention is recorded, then told).
 * A new issue has no subscribers, commenters, assignees or opt-outs yet, and its poster is the actor, so
 * its followers are the repository's watchers. `quiet` holds when none is left that the statement cannot
 * tell: no watcher but the actor and the repository's owner. `write` (an insert reading the statement's
 * CTEs `"issue"`, the new row, and `"recorded"`, its event) is notifyIssue's thread for the owner when
 * they watch and are not the actor, and readers() keeps them: a user who may sign in (the owner reads
 * the issues of any repository whose issues the actor could open an issue in).
 */
export function newIssueThreads(repoId: number, ownerId: number, actorId: number, body: string): { quiet: SQL; write: SQL } | false {
  if (mentionedNames(body).length) return false;
  return {
    quiet: sql`not exists (select 1 from repo_watches w where w.repo_id = ${repoId}::bigint and w.user_id <> ${actorId}::bigint and w.user_id <> ${ownerId}::bigint)`,
    write: sql`insert into ${notifications} (user_id, repo_id, subject_type, issue_id, comment_id, status, updated_by, created_at, updated_at)
      select w.user_id, ${repoId}::bigint, 'Issue', "issue"."id", null, 'unread', ${actorId}::bigint, "recorded"."created_at", "recorded"."created_at"
      from repo_watches w join ${users} u on u.id = w.user_id, "issue", "recorded"
      where w.repo_id = ${repoId}::bigint and w.user_id = ${ownerId}::bigint and w.user_id <> ${actorId}::bigint
        and u.type = 'User' and not u.prohibit_login`,
  };
}

// Only events of an issue in a repository may notify anyone.
addFanOut(onIssueEvent, { prefetch: prefetchThreads, quiet: (list) => list.every((e) => !('issueId' in e) || e.repoId === undefined) });

/**
 * A transfer offered to `recipient` (a user, or an organisation: the members of its owner teams) becomes a
 * Repository thread of each, in the transaction that records the pending transfer.
 */
export async function notifyTransferOffered(tx: Db, repo: RepoRow, recipient: UserRow, actorId: number): Promise<void> {
  const ids = recipient.type === 'Organization'
    ? (await tx.select({ id: teamMembers.userId }).from(teamMembers).innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .where(and(eq(teams.orgId, recipient.id), eq(teams.accessMode, 'owner')))).map((r) => r.id)
    : [recipient.id];
  const userIds = [...new Set(ids)].filter((id) => id !== actorId);
  if (userIds.length === 0) return;
  const n = notifications;
  await tx
    .insert(n)
    .values(userIds.map((userId) => ({ userId, repoId: repo.id, subjectType: 'Repository' as const, status: 'unread' as const, updatedBy: actorId })))
    .onConflictDoUpdate({
      target: [n.userId, n.repoId],
      targetWhere: sql`subject_type = 'Repository'`,
      set: { status: sql`'unread'`, updatedBy: sql`excluded.updated_by`, updatedAt: sql`now()` },
    });
}
