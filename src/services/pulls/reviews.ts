// Reviews of pull requests (Gitea's model): a review is written pending (seen by its author only), then
// submitted as an approval, a request for changes or a comment, with line comments on the diff; review
// requests are reviews of type `request` naming a user or a team. An approval by someone who may write the
// code is official (what required approvals count). Submitting records the review's event (webhook
// pull_request_approved / _rejected / _comment, and the activity feed) in the same transaction.
import { and, asc, count, desc, eq, inArray, ne, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  comments, issues, pullReviewComments, pullReviews, teams, users,
  type PullReviewCommentRow, type PullReviewRow, type ReviewType, type TeamRow, type UserRow,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { changedFiles, diffHunkAt } from '../../git/compare.js';
import { canRead, canWrite, isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import { recordEvent } from '../events/record.js';
import { inRepo, issueContent } from '../events/scope.js';
import type { AccessService } from '../repos/access.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import type { PullService, PullView } from './pulls.js';
import { openReviewRequests, type ReviewRequestsOfPulls } from './reviewRequests.js';

/** The API's review states and the stored types. */
export const stateOf: Record<ReviewType, 'APPROVED' | 'PENDING' | 'COMMENT' | 'REQUEST_CHANGES' | 'REQUEST_REVIEW'> = {
  approve: 'APPROVED', pending: 'PENDING', comment: 'COMMENT', reject: 'REQUEST_CHANGES', request: 'REQUEST_REVIEW',
};
const typeOfEvent: Record<string, ReviewType> = { APPROVED: 'approve', REQUEST_CHANGES: 'reject', COMMENT: 'comment', PENDING: 'pending' };

export interface LineComment {
  path: string;
  body: string;
  oldPosition?: number;
  newPosition?: number;
}

export interface ReviewView {
  review: PullReviewRow;
  reviewer: UserRow | undefined;
  team: TeamRow | undefined;
  commentCount: number;
  /** The pull request's head moved since the reviewed commit. */
  stale: boolean;
}

export class ReviewService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly pulls: PullService,
    private readonly access: AccessService,
  ) {}

  /** Another user's pending review is invisible (site administrators see every review). */
  private visible(review: PullReviewRow, viewer: UserRow | null): boolean {
    return review.type !== 'pending' || (!!viewer && (viewer.isAdmin || viewer.id === review.reviewerId));
  }

  async list(loaded: LoadedRepo, index: number, viewer: UserRow | null, page: { limit: number; offset: number }): Promise<{ rows: ReviewView[]; total: number; view: PullView }> {
    // get: the head brought up to date first (what `stale` is measured against).
    const view = await this.pulls.get(loaded, index);
    const where = and(
      eq(pullReviews.issueId, view.issue.id),
      viewer?.isAdmin ? undefined : or(ne(pullReviews.type, 'pending'), eq(pullReviews.reviewerId, viewer?.id ?? -1)),
    );
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(pullReviews).where(where).orderBy(asc(pullReviews.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(pullReviews).where(where),
    ]);
    return { rows: await this.views(rows, view), total: total?.n ?? 0, view };
  }

  /** One review of this pull request that `viewer` may see (404 otherwise). */
  async get(loaded: LoadedRepo, index: number, id: number, viewer: UserRow | null): Promise<{ view: PullView; review: ReviewView }> {
    const view = await this.pulls.load(loaded, index);
    const row = await this.row(view, id, viewer);
    return { view, review: (await this.views([row], view))[0]! };
  }

  private async row(view: PullView, id: number, viewer: UserRow | null): Promise<PullReviewRow> {
    const [row] = await this.deps.db.select().from(pullReviews).where(and(eq(pullReviews.id, id), eq(pullReviews.issueId, view.issue.id)));
    if (!row || !this.visible(row, viewer)) throw new NotFound();
    return row;
  }

  async views(rows: PullReviewRow[], view: PullView): Promise<ReviewView[]> {
    const { db } = this.deps;
    const userIds = [...new Set(rows.map((r) => r.reviewerId).filter(Boolean))];
    const teamIds = [...new Set(rows.map((r) => r.teamId).filter(Boolean))];
    const reviewIds = rows.map((r) => r.id);
    const [people, groups, counts] = await Promise.all([
      userIds.length ? db.select().from(users).where(inArray(users.id, userIds)) : [],
      teamIds.length ? db.select().from(teams).where(inArray(teams.id, teamIds)) : [],
      reviewIds.length
        ? db.select({ id: pullReviewComments.reviewId, n: count() }).from(pullReviewComments).where(inArray(pullReviewComments.reviewId, reviewIds)).groupBy(pullReviewComments.reviewId)
        : [],
    ]);
    const byUser = new Map(people.map((u) => [u.id, u]));
    const byTeam = new Map(groups.map((t) => [t.id, t]));
    const byCount = new Map(counts.map((c) => [c.id, c.n]));
    return rows.map((review) => ({
      review,
      reviewer: byUser.get(review.reviewerId),
      team: byTeam.get(review.teamId),
      commentCount: byCount.get(review.id) ?? 0,
      stale: review.type !== 'request' && !!review.commitId && review.commitId !== view.pull.headSha,
    }));
  }

  async comments(loaded: LoadedRepo, index: number, id: number, viewer: UserRow | null): Promise<{ view: PullView; review: PullReviewRow; rows: Array<{ comment: PullReviewCommentRow; poster: UserRow | undefined; resolver: UserRow | undefined }> }> {
    const view = await this.pulls.load(loaded, index);
    const review = await this.row(view, id, viewer);
    const resolvers = alias(users, 'resolver');
    const rows = await this.deps.db
      .select({ comment: pullReviewComments, poster: users, resolver: resolvers })
      .from(pullReviewComments)
      .leftJoin(users, eq(users.id, pullReviewComments.posterId))
      .leftJoin(resolvers, eq(resolvers.id, pullReviewComments.resolveDoerId))
      .where(eq(pullReviewComments.reviewId, review.id))
      .orderBy(asc(pullReviewComments.id));
    return { view, review, rows: rows.map((r) => ({ comment: r.comment, poster: r.poster ?? undefined, resolver: r.resolver ?? undefined })) };
  }

  /**
   * Gitea's MarkConversation (POST …/pulls/comments/{id}/resolve|unresolve): the pull request's poster, its
   * writers or the code's writers (official reviewers) mark a line comment's conversation resolved or open
   * again. A comment of a pending review is seen by its author only (404 for others); already so: no change.
   */
  async markConversation(loaded: LoadedRepo, commentId: number, actor: UserRow, resolve: boolean): Promise<void> {
    if (!canRead(loaded.perm, 'repo.pulls')) throw new NotFound();
    const [found] = await this.deps.db
      .select({ comment: pullReviewComments, review: pullReviews, issue: issues })
      .from(pullReviewComments)
      .innerJoin(pullReviews, eq(pullReviews.id, pullReviewComments.reviewId))
      .innerJoin(issues, eq(issues.id, pullReviewComments.issueId))
      .where(and(eq(pullReviewComments.id, commentId), eq(issues.repoId, loaded.repo.id)));
    if (!found || !this.visible(found.review, actor)) throw new NotFound();
    if (loaded.repo.isArchived) throw new RepoArchived();
    const allowed = found.issue.posterId === actor.id || canWrite(loaded.perm, 'repo.pulls') || canWrite(loaded.perm, 'repo.code');
    if (!allowed) throw new Forbidden('user should have permission to resolve comment');
    if ((found.comment.resolveDoerId !== null) === resolve) return;
    await this.deps.db.update(pullReviewComments).set({ resolveDoerId: resolve ? actor.id : null })
      .where(eq(pullReviewComments.id, found.comment.id));
  }

  /** Every line comment of the reviews of `view` that `viewer` may see, oldest first (the pull request's files page): one query. */
  async lineCommentsOf(view: PullView, viewer: UserRow | null, limit: number): Promise<Array<{ comment: PullReviewCommentRow; poster: UserRow | undefined }>> {
    const rows = await this.deps.db
      .select({ comment: pullReviewComments, poster: users })
      .from(pullReviewComments)
      .innerJoin(pullReviews, eq(pullReviews.id, pullReviewComments.reviewId))
      .leftJoin(users, eq(users.id, pullReviewComments.posterId))
      .where(and(
        eq(pullReviews.issueId, view.issue.id),
        viewer?.isAdmin ? undefined : or(ne(pullReviews.type, 'pending'), eq(pullReviews.reviewerId, viewer?.id ?? -1)),
      ))
      .orderBy(asc(pullReviewComments.id))
      .limit(limit);
    return rows.map((r) => ({ comment: r.comment, poster: r.poster ?? undefined }));
  }

  private writable(loaded: LoadedRepo, view: PullView): void {
    if (loaded.repo.isArchived) throw new RepoArchived();
    if (view.issue.isClosed) throw new Invalid('the pull request is closed');
  }

  /** Gitea's rules for a submitted review: a known event, a body or comments for changes and comments, never on one's own pull request. */
  private checkSubmission(type: ReviewType | undefined, event: string, view: PullView, actor: UserRow, hasContent: boolean): ReviewType {
    if (!type) throw new Invalid(`[event]: unknown review event "${event}"`);
    if ((type === 'comment' || type === 'reject') && !hasContent) throw new Invalid(`review event ${event} requires a body or a comment`);
    if ((type === 'approve' || type === 'reject') && view.issue.posterId === actor.id) {
      throw new Invalid(`${type === 'approve' ? 'approve' : 'reject'} your own pull is not allowed`);
    }
    return type;
  }

  /** Line comments, checked against the pull request's diff (a changed path and a line) before any write. */
  private async lineComments(loaded: LoadedRepo, view: PullView, list: LineComment[], commitId: string) {
    if (list.length === 0) return [];
    const dir = this.pulls.dir(loaded);
    const { mergeBase, headSha } = view.pull;
    const paths = new Set(mergeBase && headSha ? (await changedFiles(dir, mergeBase, headSha)).map((f) => f.path) : []);
    const out: Array<{ path: string; body: string; line: number; diffHunk: string; commitId: string }> = [];
    for (const [i, c] of list.entries()) {
      if (!paths.has(c.path)) throw new Invalid(`[comments.${i}.path]: the pull request does not change "${c.path}"`);
      const line = c.newPosition ? c.newPosition : c.oldPosition ? -c.oldPosition : 0;
      if (!line) throw new Invalid(`[comments.${i}]: a line comment needs new_position or old_position`);
      out.push({ path: c.path, body: c.body, line, commitId, diffHunk: await diffHunkAt(dir, mergeBase, headSha, c.path, line) });
    }
    return out;
  }

  async create(
    loaded: LoadedRepo, index: number, actor: UserRow,
    input: { event?: string; body?: string; commitId?: string; comments?: LineComment[] },
  ): Promise<{ view: PullView; review: ReviewView }> {
    const view = await this.pulls.get(loaded, index);
    this.writable(loaded, view);
    const event = (input.event ?? '').toUpperCase() || 'PENDING';
    const wanted = typeOfEvent[event];
    const body = input.body ?? '';
    const lines = input.comments ?? [];
    const type = wanted === 'pending' ? 'pending' : this.checkSubmission(wanted, event, view, actor, !!body.trim() || lines.length > 0);
    const commitId = input.commitId || view.pull.headSha;
    const checked = await this.lineComments(loaded, view, lines, commitId);
    const official = canWrite(loaded.perm, 'repo.code');
    const id = await withTx(this.deps.db, async (tx) => {
      // The caller's pending review of this pull request is continued rather than a second one started.
      const [pending] = await tx.select().from(pullReviews)
        .where(and(eq(pullReviews.issueId, view.issue.id), eq(pullReviews.reviewerId, actor.id), eq(pullReviews.type, 'pending')))
        .for('update');
      const now = new Date();
      const values = { type, body: body || pending?.body || '', commitId, official: type === 'pending' ? false : official, updatedAt: now };
      const [row] = pending
        ? await tx.update(pullReviews).set(values).where(eq(pullReviews.id, pending.id)).returning()
        : await tx.insert(pullReviews).values({ issueId: view.issue.id, repoId: loaded.repo.id, reviewerId: actor.id, ...values }).returning();
      if (checked.length) {
        await tx.insert(pullReviewComments).values(checked.map((c) => ({ reviewId: row!.id, issueId: view.issue.id, posterId: actor.id, ...c })));
      }
      if (type !== 'pending') await this.recordSubmission(tx, loaded, view, row!, actor);
      return row!.id;
    });
    return this.get(loaded, index, id, actor);
  }

  async submit(loaded: LoadedRepo, index: number, id: number, actor: UserRow, input: { event: string; body?: string }): Promise<{ view: PullView; review: ReviewView }> {
    const view = await this.pulls.get(loaded, index);
    const review = await this.row(view, id, actor);
    this.writable(loaded, view);
    if (review.type !== 'pending') throw new Invalid('only a pending review can be submitted');
    if (review.reviewerId !== actor.id) throw new NotFound();
    const event = input.event.toUpperCase();
    const wanted = typeOfEvent[event];
    if (wanted === 'pending') throw new Invalid('[event]: a review is submitted as APPROVED, REQUEST_CHANGES or COMMENT');
    const body = input.body?.trim() ? input.body : review.body;
    const [lines] = await this.deps.db.select({ n: count() }).from(pullReviewComments).where(eq(pullReviewComments.reviewId, review.id));
    const type = this.checkSubmission(wanted, event, view, actor, !!body.trim() || (lines?.n ?? 0) > 0);
    const official = canWrite(loaded.perm, 'repo.code');
    await withTx(this.deps.db, async (tx) => {
      const [row] = await tx.update(pullReviews)
        .set({ type, body, official, commitId: view.pull.headSha || review.commitId, updatedAt: new Date() })
        .where(and(eq(pullReviews.id, review.id), eq(pullReviews.type, 'pending')))
        .returning();
      if (!row) throw new Invalid('only a pending review can be submitted');
      await this.recordSubmission(tx, loaded, view, row, actor);
    });
    return this.get(loaded, index, id, actor);
  }

  private async recordSubmission(tx: Db, loaded: LoadedRepo, view: PullView, review: PullReviewRow, actor: UserRow): Promise<void> {
    const hook = review.type === 'approve' ? 'pull_request_review_approved' : review.type === 'reject' ? 'pull_request_review_rejected' : 'pull_request_review_comment';
    const opType = review.type === 'approve' ? 'approve_pull_request' : review.type === 'reject' ? 'reject_pull_request' : 'comment_pull';
    await recordEvent(this.deps, tx, {
      type: hook, action: 'reviewed', issueId: view.issue.id, reviewId: review.id, ...inRepo(loaded.repo, actor.id),
      activity: { opType, issueId: view.issue.id, content: issueContent(view.issue.index, review.body) },
    });
  }

  async delete(loaded: LoadedRepo, index: number, id: number, actor: UserRow): Promise<void> {
    const view = await this.pulls.load(loaded, index);
    const review = await this.row(view, id, actor);
    if (loaded.repo.isArchived) throw new RepoArchived();
    if (!actor.isAdmin && review.reviewerId !== actor.id) throw new Forbidden('only admin and user itself can delete a review');
    await this.deps.db.delete(pullReviews).where(eq(pullReviews.id, review.id));
  }

  async dismiss(loaded: LoadedRepo, index: number, id: number, actor: UserRow, input: { message?: string; priors?: boolean }): Promise<{ view: PullView; review: ReviewView }> {
    const view = await this.pulls.load(loaded, index);
    const review = await this.row(view, id, actor);
    if (!isRepoAdmin(loaded.perm)) throw new Forbidden('Must be repo admin');
    this.writable(loaded, view);
    if (review.type !== 'approve' && review.type !== 'reject') throw new Invalid('only an approval or a request for changes can be dismissed');
    await withTx(this.deps.db, async (tx) => {
      const ids = [review.id];
      if (input.priors) {
        const earlier = await tx.select({ id: pullReviews.id }).from(pullReviews).where(and(
          eq(pullReviews.issueId, view.issue.id), eq(pullReviews.reviewerId, review.reviewerId), inArray(pullReviews.type, ['approve', 'reject']),
        ));
        ids.push(...earlier.map((r) => r.id).filter((x) => x < review.id));
      }
      await tx.update(pullReviews).set({ dismissed: true, updatedAt: new Date() }).where(inArray(pullReviews.id, ids));
      await tx.insert(comments).values({ issueId: view.issue.id, repoId: loaded.repo.id, posterId: actor.id, type: 'dismiss_review', body: input.message ?? '', newValue: String(review.id) });
      await recordEvent(this.deps, tx, {
        type: 'pull_request_review_dismissed', action: 'dismissed', issueId: view.issue.id, reviewId: review.id, ...inRepo(loaded.repo, actor.id),
        activity: { opType: 'pull_review_dismissed', issueId: view.issue.id, content: issueContent(view.issue.index, input.message ?? '') },
      });
    });
    return this.get(loaded, index, id, actor);
  }

  /**
   * Gitea's UnDismissPullReview: repository administrators make a dismissed approval or request for changes
   * count again. Gitea records nothing else for it (no comment, feed row or webhook), and neither does this.
   */
  async undismiss(loaded: LoadedRepo, index: number, id: number, actor: UserRow): Promise<{ view: PullView; review: ReviewView }> {
    const view = await this.pulls.load(loaded, index);
    const review = await this.row(view, id, actor);
    if (!isRepoAdmin(loaded.perm)) throw new Forbidden('Must be repo admin');
    this.writable(loaded, view);
    if (review.type !== 'approve' && review.type !== 'reject') throw new Invalid('only an approval or a request for changes can be dismissed or undismissed');
    if (review.dismissed) await this.deps.db.update(pullReviews).set({ dismissed: false, updatedAt: new Date() }).where(eq(pullReviews.id, review.id));
    return this.get(loaded, index, id, actor);
  }

  /** The named users and the org's named teams (404 when one does not exist). */
  private async reviewers(loaded: LoadedRepo, names: { users: string[]; teams: string[] }): Promise<{ users: UserRow[]; teams: TeamRow[] }> {
    const { db } = this.deps;
    const lowerUsers = [...new Set(names.users.map((n) => n.toLowerCase()))];
    const lowerTeams = [...new Set(names.teams.map((n) => n.toLowerCase()))];
    const found = lowerUsers.length ? await db.select().from(users).where(inArray(users.lowerName, lowerUsers)) : [];
    const missing = lowerUsers.find((n) => !found.some((u) => u.lowerName === n && u.type !== 'Organization'));
    if (missing) throw new NotFound(`user does not exist [name: ${missing}]`);
    if (lowerTeams.length && loaded.owner.type !== 'Organization') throw new Invalid('team reviewers need a repository owned by an organization');
    const groups = lowerTeams.length ? await db.select().from(teams).where(and(eq(teams.orgId, loaded.owner.id), inArray(teams.lowerName, lowerTeams))) : [];
    const missingTeam = lowerTeams.find((n) => !groups.some((t) => t.lowerName === n));
    if (missingTeam) throw new NotFound(`team does not exist [name: ${missingTeam}]`);
    return { users: found, teams: groups };
  }

  /** Gitea's CanDoerChangeReviewRequests: the poster or a writer of pull requests. */
  private isRequester(loaded: LoadedRepo, view: PullView, actor: UserRow): boolean {
    return view.issue.posterId === actor.id || canWrite(loaded.perm, 'repo.pulls');
  }

  private requireRequester(loaded: LoadedRepo, view: PullView, actor: UserRow): void {
    if (!this.isRequester(loaded, view, actor)) throw new Invalid('Doer can\'t choose reviewer');
  }

  async request(loaded: LoadedRepo, index: number, actor: UserRow, names: { users: string[]; teams: string[] }): Promise<{ view: PullView; rows: ReviewView[] }> {
    const view = await this.pulls.load(loaded, index);
    this.writable(loaded, view);
    this.requireRequester(loaded, view, actor);
    const who = await this.reviewers(loaded, names);
    for (const user of who.users) {
      if (user.id === view.issue.posterId) throw new Invalid(`poster of pr can't be reviewer [user: ${user.name}]`);
      const perm = await this.access.repoPermission(loaded.repo, loaded.owner, user);
      if (!canRead(perm, 'repo.pulls')) throw new Invalid(`Reviewer can't read [user: ${user.name}]`);
    }
    const created = await withTx(this.deps.db, async (tx) => {
      const made: PullReviewRow[] = [];
      const targets = [...who.users.map((u) => ({ reviewerId: u.id, teamId: 0 })), ...who.teams.map((t) => ({ reviewerId: 0, teamId: t.id }))];
      for (const t of targets) {
        // Asked already and not yet answered: not asked twice.
        if (await this.pendingRequest(tx, view.issue.id, t)) continue;
        const [row] = await tx.insert(pullReviews).values({ issueId: view.issue.id, repoId: loaded.repo.id, ...t, type: 'request' }).returning();
        made.push(row!);
        await tx.insert(comments).values({ issueId: view.issue.id, repoId: loaded.repo.id, posterId: actor.id, type: 'review_request', newValue: t.reviewerId ? `user:${t.reviewerId}` : `team:${t.teamId}` });
        await recordEvent(this.deps, tx, {
          type: 'pull_request_review_request', action: 'review_requested', issueId: view.issue.id, ...t, ...inRepo(loaded.repo, actor.id),
        });
      }
      return made;
    });
    return { view, rows: await this.views(created, view) };
  }

  async unrequest(loaded: LoadedRepo, index: number, actor: UserRow, names: { users: string[]; teams: string[] }): Promise<void> {
    const view = await this.pulls.load(loaded, index);
    this.writable(loaded, view);
    // Gitea's IsValidReviewRequest: besides those who may change the requests, a reviewer may withdraw
    // their own pending request (and nobody else's).
    const requester = this.isRequester(loaded, view, actor);
    const cannot = new Invalid('Doer can\'t remove reviewer');
    // One who may not change the requests withdraws exactly their own: naming nobody is no withdrawal.
    const ownOnly = names.teams.length === 0 && names.users.length > 0 && names.users.every((n) => n.toLowerCase() === actor.lowerName);
    if (!requester && !ownOnly) throw cannot;
    const who = await this.reviewers(loaded, names);
    await withTx(this.deps.db, async (tx) => {
      const targets = [...who.users.map((u) => ({ reviewerId: u.id, teamId: 0 })), ...who.teams.map((t) => ({ reviewerId: 0, teamId: t.id }))];
      for (const t of targets) {
        const open = await this.pendingRequest(tx, view.issue.id, t);
        if (!open && !requester) throw cannot;
        if (!open) continue;
        await tx.delete(pullReviews).where(eq(pullReviews.id, open.id));
        await recordEvent(this.deps, tx, {
          type: 'pull_request_review_request', action: 'review_request_removed', issueId: view.issue.id, ...t, ...inRepo(loaded.repo, actor.id),
        });
      }
    });
  }

  /** The unanswered request of a user or team: a request that is their latest approval, rejection or request. */
  private async pendingRequest(tx: Db, issueId: number, t: { reviewerId: number; teamId: number }): Promise<PullReviewRow | undefined> {
    const [latest] = await tx.select().from(pullReviews)
      .where(and(
        eq(pullReviews.issueId, issueId), eq(pullReviews.reviewerId, t.reviewerId), eq(pullReviews.teamId, t.teamId),
        inArray(pullReviews.type, ['approve', 'reject', 'request']),
      ))
      .orderBy(desc(pullReviews.id))
      .limit(1);
    return latest?.type === 'request' ? latest : undefined;
  }

  /** The unanswered review requests of a page of pull requests (their requested_reviewers and _teams). */
  requested(issueIds: number[]): Promise<ReviewRequestsOfPulls> {
    return openReviewRequests(this.deps.db, issueIds);
  }
}
