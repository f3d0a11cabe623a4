// Comments on issues and pull requests, with Gitea's content history on edit.
import { and, asc, count, eq, gte, inArray, lte, type SQL } from 'drizzle-orm';
import {
  attachments, comments, contentHistory, issues, labels, milestones, trackedTimes, users,
  type AttachmentRow, type CommentRow, type IssueRow, type LabelRow, type MilestoneRow, type TrackedTimeRow, type UserRow,
} from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { recordEvent } from '../events/record.js';
import { inRepo, issueContent } from '../events/scope.js';
import { canRead } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { recountComments } from './counters.js';
import { Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import { canWriteIssue, issueUnit } from './issues.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { refuseBlocked } from '../users/blocks.js';
import { addCrossReferences, neuterCrossReferences } from './crossRefs.js';

/**
 * Gitea keeps the first 200 characters of a comment in the feed: here 200 UTF-16 units, never half of a
 * surrogate pair (a lone one is no valid JSON text for the database, and the comment answered 500).
 */
const excerpt = (body: string) => {
  if (body.length <= 200) return body;
  const end = /[\uD800-\uDBFF]/.test(body[199]!) ? 199 : 200;
  return `${body.slice(0, end)}…`;
};

/** The rows a page of timeline entries refers to (see CommentService.timelineDetails). */
export interface TimelineRows {
  posters: Map<number, UserRow>;
  users: Map<number, UserRow>;
  labels: Map<number, LabelRow>;
  milestones: Map<number, MilestoneRow>;
  times: Map<number, TrackedTimeRow>;
  /** The issues references come from and dependencies name, whatever the caller may read (the presenter decides). */
  issues: Map<number, IssueRow>;
  refComments: Map<number, CommentRow>;
}

export class CommentService {
  constructor(private readonly deps: ServiceDeps) {}

  async create(loaded: LoadedRepo, issue: IssueRow, actor: UserRow, body: string): Promise<CommentRow> {
    if (loaded.repo.isArchived) throw new RepoArchived();
    if (!body.trim()) throw new Invalid('[body]: Required');
    if (issue.isLocked && !canWriteIssue(loaded.perm, issue.isPull)) throw new Forbidden('the issue is locked');
    return withTx(this.deps.db, async (tx) => {
      // As Gitea: someone the repository's owner or the issue's poster blocked does not comment (403).
      await refuseBlocked(tx, actor.id, [loaded.owner.id, issue.posterId]);
      const now = new Date();
      const [row] = await tx.insert(comments).values({ issueId: issue.id, repoId: issue.repoId, posterId: actor.id, body, createdAt: now, updatedAt: now }).returning();
      await recountComments(tx, issue.id);
      await tx.update(issues).set({ updatedAt: now }).where(eq(issues.id, issue.id));
      await addCrossReferences(this.deps, tx, actor, { issue, repo: loaded.repo, owner: loaded.owner, comment: row! }, { plain: '', markdown: body }, false);
      await recordEvent(this.deps, tx, {
        type: issue.isPull ? 'pull_request_comment' : 'issue_comment', action: 'created', issueId: issue.id, commentId: row!.id,
        ...inRepo(loaded.repo, actor.id),
        activity: { opType: issue.isPull ? 'comment_pull' : 'comment_issue', issueId: issue.id, commentId: row!.id, content: issueContent(issue.index, excerpt(body)) },
      });
      return row!;
    });
  }

  /** `events`: the recorded events too (the timeline), not only the text comments. */
  async list(issue: IssueRow, f: { since?: string; before?: string; events?: boolean }, page: { limit: number; offset: number }): Promise<{ rows: CommentRow[]; total: number }> {
    const conds: SQL[] = [eq(comments.issueId, issue.id)];
    if (!f.events) conds.push(eq(comments.type, 'comment'));
    if (f.since) conds.push(gte(comments.updatedAt, new Date(f.since)));
    if (f.before) conds.push(lte(comments.updatedAt, new Date(f.before)));
    const where = and(...conds);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(comments).where(where).orderBy(asc(comments.createdAt), asc(comments.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(comments).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** A comment of this repository whose issue the caller may read; 404 otherwise. */
  async load(loaded: LoadedRepo, id: number): Promise<{ comment: CommentRow; issue: IssueRow }> {
    const [row] = await this.deps.db
      .select({ comment: comments, issue: issues })
      .from(comments)
      .innerJoin(issues, eq(issues.id, comments.issueId))
      .where(eq(comments.id, id));
    if (!row || row.issue.repoId !== loaded.repo.id || !canRead(loaded.perm, issueUnit(row.issue.isPull))) throw new NotFound();
    return row;
  }

  private checkEdit(loaded: LoadedRepo, issue: IssueRow, comment: CommentRow, actor: UserRow): void {
    if (actor.id !== comment.posterId && !canWriteIssue(loaded.perm, issue.isPull)) {
      throw new Forbidden('user should be the poster or a writer');
    }
    if (loaded.repo.isArchived) throw new RepoArchived();
  }

  /** Returns undefined for an event comment, which has no text to edit (Gitea answers 204). */
  async edit(loaded: LoadedRepo, id: number, actor: UserRow, body: string): Promise<CommentRow | undefined> {
    const { comment, issue } = await this.load(loaded, id);
    this.checkEdit(loaded, issue, comment, actor);
    if (comment.type !== 'comment') return undefined;
    if (!body.trim()) throw new Invalid('[body]: Required');
    if (body === comment.body) return comment;
    return withTx(this.deps.db, async (tx) => {
      const now = new Date();
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(contentHistory)
        .where(and(eq(contentHistory.issueId, issue.id), eq(contentHistory.commentId, comment.id)));
      if (n === 0) {
        // The original text first, as its poster wrote it, so the history starts where the comment did.
        await tx.insert(contentHistory).values({ issueId: issue.id, commentId: comment.id, editorId: comment.posterId, content: comment.body, isFirstCreated: true, createdAt: comment.createdAt });
      }
      const [row] = await tx
        .update(comments)
        .set({ body, contentVersion: comment.contentVersion + 1, updatedAt: now })
        .where(eq(comments.id, comment.id))
        .returning();
      await tx.insert(contentHistory).values({ issueId: issue.id, commentId: comment.id, editorId: actor.id, content: body, createdAt: now });
      await addCrossReferences(this.deps, tx, actor, { issue, repo: loaded.repo, owner: loaded.owner, comment: row! }, { plain: '', markdown: body }, true);
      await recordEvent(this.deps, tx, {
        type: issue.isPull ? 'pull_request_comment' : 'issue_comment', action: 'edited', issueId: issue.id, commentId: comment.id,
        changes: { body: { from: comment.body } }, ...inRepo(loaded.repo, actor.id),
      });
      return row!;
    });
  }

  async delete(loaded: LoadedRepo, id: number, actor: UserRow): Promise<void> {
    const { comment, issue } = await this.load(loaded, id);
    this.checkEdit(loaded, issue, comment, actor);
    // Events (title changes, closing, ...) are part of the issue's history: Gitea keeps them.
    if (comment.type !== 'comment') return;
    await withTx(this.deps.db, async (tx) => {
      // Recorded while the comment still exists: the payload shows what was deleted.
      await recordEvent(this.deps, tx, {
        type: issue.isPull ? 'pull_request_comment' : 'issue_comment', action: 'deleted', issueId: issue.id, commentId: comment.id,
        ...inRepo(loaded.repo, actor.id),
      });
      await neuterCrossReferences(tx, issue.id, comment.id);
      await tx.delete(comments).where(eq(comments.id, comment.id));
      await recountComments(tx, issue.id);
    });
  }

  /** Posters and attachments of a page of comments, in two queries. */
  async details(rows: CommentRow[]): Promise<{ posters: Map<number, UserRow>; assets: Map<number, AttachmentRow[]> }> {
    const posters = new Map<number, UserRow>();
    const assets = new Map<number, AttachmentRow[]>(rows.map((r) => [r.id, []]));
    if (rows.length === 0) return { posters, assets };
    const [users_, files] = await Promise.all([
      this.deps.db.select().from(users).where(inArray(users.id, [...new Set(rows.map((r) => r.posterId))])),
      this.deps.db.select().from(attachments).where(inArray(attachments.commentId, rows.map((r) => r.id))).orderBy(asc(attachments.id)),
    ]);
    for (const u of users_) posters.set(u.id, u);
    for (const f of files) assets.get(f.commentId!)?.push(f);
    return { posters, assets };
  }

  /**
   * What a page of timeline entries shows besides their own rows, each kind read once for the page: the
   * posters; the labels of `label` events; the users of `review_request` (`user:<id>` in new_value) and
   * `assignees` events; the milestones of `milestone` events; the tracked times of time events; the issues
   * a reference comes from or a dependency names, and the comments references come from.
   */
  async timelineDetails(rows: CommentRow[]): Promise<TimelineRows> {
    const numeric = (v: string) => (/^[0-9]{1,15}$/.test(v) ? Number(v) : null);
    const ids = (pick: (r: CommentRow) => number | null | undefined) => [...new Set(rows.map(pick).filter((n): n is number => typeof n === 'number' && n > 0))];
    const labelIds = ids((r) => (r.type === 'label' ? numeric(r.newValue) : null));
    const userIds = ids((r) => (r.type === 'review_request' && r.newValue.startsWith('user:') ? numeric(r.newValue.slice(5)) : null));
    const assigneeIds = ids((r) => (r.type === 'assignees' ? r.assigneeId : null));
    const milestoneIds = [...ids((r) => r.milestoneId), ...ids((r) => r.oldMilestoneId)];
    const timeIds = ids((r) => r.timeId);
    const issueIds = [...ids((r) => r.refIssueId), ...ids((r) => r.dependentIssueId)];
    const refCommentIds = ids((r) => r.refCommentId);
    const { db } = this.deps;
    const [labelRows, milestoneRows, timeRows, issueRows, refComments] = await Promise.all([
      labelIds.length ? db.select().from(labels).where(inArray(labels.id, labelIds)) : Promise.resolve([]),
      milestoneIds.length ? db.select().from(milestones).where(inArray(milestones.id, milestoneIds)) : Promise.resolve([]),
      timeIds.length ? db.select().from(trackedTimes).where(inArray(trackedTimes.id, timeIds)) : Promise.resolve([]),
      issueIds.length ? db.select().from(issues).where(inArray(issues.id, issueIds)) : Promise.resolve([]),
      refCommentIds.length ? db.select().from(comments).where(inArray(comments.id, refCommentIds)) : Promise.resolve([]),
    ]);
    const allUsers = [...new Set([...rows.map((r) => r.posterId), ...userIds, ...assigneeIds, ...refComments.map((c) => c.posterId), ...timeRows.map((t) => t.userId)])];
    const userRows = allUsers.length ? await db.select().from(users).where(inArray(users.id, allUsers)) : [];
    const byId = new Map(userRows.map((u) => [u.id, u]));
    return {
      posters: byId,
      users: byId,
      labels: new Map(labelRows.map((l) => [l.id, l])),
      milestones: new Map(milestoneRows.map((m) => [m.id, m])),
      times: new Map(timeRows.map((t) => [t.id, t])),
      issues: new Map(issueRows.map((i) => [i.id, i])),
      refComments: new Map(refComments.map((c) => [c.id, c])),
    };
  }

  /** Text versions of an issue body (commentId 0) or a comment, oldest first. */
  async history(issueId: number, commentId: number) {
    return this.deps.db.select().from(contentHistory)
      .where(and(eq(contentHistory.issueId, issueId), eq(contentHistory.commentId, commentId)))
      .orderBy(asc(contentHistory.createdAt), asc(contentHistory.id));
  }
}
