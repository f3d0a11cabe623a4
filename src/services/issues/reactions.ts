// Reactions to issues, pull requests and comments (#38): Gitea's allowed kinds, one per user, kind and target.
import { and, asc, count, eq, isNull, or, sql } from 'drizzle-orm';
import { reactions, userBlocks, users, type CommentRow, type IssueRow, type ReactionRow, type UserRow } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, RepoArchived } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import type { CommentService } from './comments.js';
import { canWriteIssue, type IssueService } from './issues.js';

/** Gitea's `[ui] REACTIONS` default; `GET /settings/ui` lists the same. */
export const allowedReactions = ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'] as const;

/** A reaction and who gave it (for a migrated one, `user` is the migrating user; the converter shows its original author). */
export type ReactionView = { reaction: ReactionRow; user: UserRow };
type Page = { limit: number; offset: number };
/** What a reaction is to: the issue itself, or one of its comments. */
type Target = { issue: IssueRow; comment: CommentRow | null };

export class ReactionService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly issues: IssueService,
    private readonly comments: CommentService,
  ) {}

  /** The issue's own reactions (not its comments'), oldest first. 404 when the issue cannot be read. */
  async listForIssue(loaded: LoadedRepo, index: number, page: Page): Promise<{ rows: ReactionView[]; total: number }> {
    const issue = await this.issues.load(loaded, index);
    const where = and(eq(reactions.issueId, issue.id), isNull(reactions.commentId));
    const [rows, [total]] = await Promise.all([
      this.deps.db.select({ reaction: reactions, user: users }).from(reactions).innerJoin(users, eq(users.id, reactions.userId))
        .where(where).orderBy(asc(reactions.createdAt), asc(reactions.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(reactions).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** A comment's reactions, oldest first, all of them (as Gitea). */
  async listForComment(loaded: LoadedRepo, commentId: number): Promise<ReactionView[]> {
    const { comment } = await this.comments.load(loaded, commentId);
    return this.deps.db.select({ reaction: reactions, user: users }).from(reactions).innerJoin(users, eq(users.id, reactions.userId))
      .where(eq(reactions.commentId, comment.id)).orderBy(asc(reactions.createdAt), asc(reactions.id));
  }

  async issueTarget(loaded: LoadedRepo, index: number): Promise<Target> {
    return { issue: await this.issues.load(loaded, index), comment: null };
  }

  async commentTarget(loaded: LoadedRepo, commentId: number): Promise<Target> {
    const { comment, issue } = await this.comments.load(loaded, commentId);
    return { issue, comment };
  }

  private check(loaded: LoadedRepo, { issue }: Target): void {
    if (issue.isLocked && !canWriteIssue(loaded.perm, issue.isPull)) throw new Forbidden('no permission to change reaction');
    if (loaded.repo.isArchived) throw new RepoArchived();
  }

  /** Adds the caller's reaction; `created` is false when it was there already (Gitea answers 200 then). */
  async add(loaded: LoadedRepo, target: Target, actor: UserRow, content: string): Promise<{ view: ReactionView; created: boolean }> {
    this.check(loaded, target);
    if (!(allowedReactions as readonly string[]).includes(content)) throw new Forbidden(`'${content}' is not an allowed reaction`);
    // Gitea: a user blocked by the poster (of the issue or comment) or by the repository's owner may not react.
    const posterId = target.comment ? target.comment.posterId : target.issue.posterId;
    const [blocked] = await this.deps.db.select({ one: sql`1` }).from(userBlocks)
      .where(and(eq(userBlocks.blockeeId, actor.id), or(eq(userBlocks.blockerId, posterId), eq(userBlocks.blockerId, loaded.owner.id)))).limit(1);
    if (blocked) throw new Forbidden('user is blocked by the poster or the repository owner');
    const commentId = target.comment?.id ?? null;
    const [inserted] = await this.deps.db.insert(reactions)
      .values({ issueId: target.issue.id, commentId, userId: actor.id, type: content })
      .onConflictDoNothing().returning();
    if (inserted) return { view: { reaction: inserted, user: actor }, created: true };
    const [existing] = await this.deps.db.select().from(reactions).where(this.mine(target, actor, content)).limit(1);
    // Removed again between the two statements: the caller's reaction is answered as it was asked for.
    return { view: { reaction: existing ?? { id: 0, issueId: target.issue.id, commentId, userId: actor.id, type: content, createdAt: new Date(), originalAuthor: '', originalAuthorId: 0 }, user: actor }, created: false };
  }

  /** Removes the caller's reaction of that kind, if any. */
  async remove(loaded: LoadedRepo, target: Target, actor: UserRow, content: string): Promise<void> {
    this.check(loaded, target);
    await this.deps.db.delete(reactions).where(this.mine(target, actor, content));
  }

  private mine(target: Target, actor: UserRow, content: string) {
    return and(
      eq(reactions.issueId, target.issue.id),
      target.comment ? eq(reactions.commentId, target.comment.id) : isNull(reactions.commentId),
      eq(reactions.userId, actor.id),
      eq(reactions.type, content),
      eq(reactions.originalAuthor, ''),
    );
  }

}
