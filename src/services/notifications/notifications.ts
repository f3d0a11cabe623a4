// A user's notification threads: listing, counting, reading one, and the status transition (mark read,
// unread or pinned). A thread is only ever shown to its user, and only while they can still read its
// subject (issues unit for Issue threads, pulls unit for Pull threads, the repository for the others).
import { and, count, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  comments, issues, notifications, pullRequests, repoTransfers,
  type CommentRow, type IssueRow, type NotificationRow, type NotificationStatus, type RepoRow, type SubjectType, type UserRow,
} from '../../db/schema/index.js';
import { canRead, canSeeRepo, type RepoPermission } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { NotFound } from '../errors.js';
import type { AccessService, RepoReach } from '../repos/access.js';

export interface ThreadFilter {
  /** Statuses to select; empty or undefined selects every status. */
  statuses?: NotificationStatus[];
  subjectTypes?: SubjectType[];
  /** Updated at or after (compared in whole seconds, see `second`). */
  since?: Date;
  /** Updated strictly before (compared in whole seconds). */
  before?: Date;
  repoId?: number;
}

/** What a thread is shown with. */
export interface ThreadView {
  row: NotificationRow;
  repo: RepoRow;
  owner: UserRow;
  perm: RepoPermission;
  issue?: IssueRow;
  merged: boolean;
  comment?: CommentRow;
}

/**
 * `d` cut to the whole second. Threads show `updated_at` in whole seconds (Gitea stores Unix seconds), so the
 * time filters compare at that precision: a client passing back a thread's own `updated_at` as `last_read_at`
 * selects it, as `since` it keeps it, as `before` it leaves it out.
 */
const second = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);

export class NotificationService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
  ) {}

  /** The user's repositories with threads, each with the caller's permission. */
  private async reach(user: UserRow, repoId?: number) {
    const n = notifications;
    const ids = (await this.deps.db
      .selectDistinct({ repoId: n.repoId })
      .from(n)
      .where(and(eq(n.userId, user.id), repoId === undefined ? undefined : eq(n.repoId, repoId)))).map((r) => r.repoId);
    if (ids.length === 0) return { visible: sql`false`, repos: new Map() as RepoReach };
    const repos = await this.access.reposById(ids, user);
    const pending = await this.deps.db.select({ repoId: repoTransfers.repoId }).from(repoTransfers).where(inArray(repoTransfers.repoId, ids));
    const pick = (ok: (p: RepoPermission) => boolean) => [...repos.values()].filter((r) => ok(r.perm)).map((r) => r.repo.id);
    const byType: Array<[SubjectType[], number[]]> = [
      [['Issue'], pick((p) => canRead(p, 'repo.issues'))],
      [['Pull'], pick((p) => canRead(p, 'repo.pulls'))],
      [['Commit'], pick((p) => canRead(p, 'repo.code'))],
      // A transfer's recipient may not see the repository yet: its Repository thread shows while the transfer is pending.
      [['Repository'], [...new Set([...pick(canSeeRepo), ...pending.map((t) => t.repoId)])]],
    ];
    const parts = byType.filter(([, r]) => r.length).map(([types, r]) => and(inArray(n.subjectType, types), inArray(n.repoId, r))!);
    return { visible: parts.length ? or(...parts)! : sql`false`, repos };
  }

  private where(user: UserRow, visible: SQL, f: ThreadFilter): SQL {
    const n = notifications;
    return and(
      eq(n.userId, user.id),
      visible,
      f.repoId === undefined ? undefined : eq(n.repoId, f.repoId),
      f.statuses?.length ? inArray(n.status, f.statuses) : undefined,
      f.subjectTypes?.length ? inArray(n.subjectType, f.subjectTypes) : undefined,
      f.since ? gte(n.updatedAt, second(f.since)) : undefined,
      f.before ? lt(n.updatedAt, second(f.before)) : undefined,
    )!;
  }

  async list(user: UserRow, f: ThreadFilter, page: { limit: number; offset: number }): Promise<{ rows: ThreadView[]; total: number }> {
    const { visible, repos } = await this.reach(user, f.repoId);
    const where = this.where(user, visible, f);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(notifications).where(where).orderBy(desc(notifications.updatedAt), desc(notifications.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(notifications).where(where),
    ]);
    return { rows: await this.views(rows, repos), total: Number(total?.n ?? 0) };
  }

  /** How many unread threads the user can see. */
  async unreadCount(user: UserRow): Promise<number> {
    const { visible } = await this.reach(user);
    const [row] = await this.deps.db.select({ n: count() }).from(notifications).where(this.where(user, visible, { statuses: ['unread'] }));
    return Number(row?.n ?? 0);
  }

  /** One of the user's threads; 404 for another user's, or one whose subject they can no longer read. */
  async get(user: UserRow, id: number): Promise<ThreadView> {
    const [row] = await this.deps.db.select().from(notifications).where(and(eq(notifications.id, id), eq(notifications.userId, user.id)));
    if (!row) throw new NotFound();
    const { visible, repos } = await this.reach(user, row.repoId);
    const [still] = await this.deps.db.select({ id: notifications.id }).from(notifications).where(and(eq(notifications.id, id), visible));
    if (!still) throw new NotFound();
    return (await this.views([row], repos))[0]!;
  }

  /** Sets one thread's status (PATCH /notifications/threads/{id}). */
  async mark(user: UserRow, id: number, to: NotificationStatus): Promise<ThreadView> {
    const view = await this.get(user, id);
    if (view.row.status === to) return view;
    const [row] = await this.deps.db
      .update(notifications)
      .set({ status: to, updatedAt: sql`now()` })
      .where(eq(notifications.id, id))
      .returning();
    return { ...view, row: row! };
  }

  /**
   * The transition of spec 33 (and PUT /notifications): the user's visible threads whose status is one of
   * `statuses` (every status when empty) and that were updated at or before `lastReadAt`'s second (no limit when absent)
   * move to `to`. One UPDATE: a thread changed by a concurrent notification after the statement's snapshot
   * is not touched. Returns the changed threads, newest first.
   */
  async transition(user: UserRow, f: { statuses?: NotificationStatus[]; lastReadAt?: Date; repoId?: number }, to: NotificationStatus): Promise<ThreadView[]> {
    const { visible, repos } = await this.reach(user, f.repoId);
    const n = notifications;
    const changed = await this.deps.db
      .update(n)
      .set({ status: to, updatedAt: sql`now()` })
      .where(and(
        this.where(user, visible, { statuses: f.statuses, repoId: f.repoId }),
        // Updated within `lastReadAt`'s second or earlier (the end of that second added in SQL: past 9999-12-31
        // it is no ISO 8601 date a driver would send).
        f.lastReadAt ? sql`${n.updatedAt} < ${second(f.lastReadAt).toISOString()}::timestamptz + interval '1 second'` : undefined,
        sql`${n.status} <> ${to}`,
      ))
      .returning();
    changed.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || b.id - a.id);
    return this.views(changed, repos);
  }

  private async views(rows: NotificationRow[], repos: Map<number, { repo: RepoRow; owner: UserRow; perm: RepoPermission }>): Promise<ThreadView[]> {
    const issueIds = [...new Set(rows.map((r) => r.issueId).filter((x): x is number => x !== null))];
    const commentIds = [...new Set(rows.map((r) => r.commentId).filter((x): x is number => x !== null))];
    const [issueRows, pulls, commentRows] = await Promise.all([
      issueIds.length ? this.deps.db.select().from(issues).where(inArray(issues.id, issueIds)) : [],
      issueIds.length ? this.deps.db.select({ issueId: pullRequests.issueId, merged: pullRequests.merged }).from(pullRequests).where(inArray(pullRequests.issueId, issueIds)) : [],
      commentIds.length ? this.deps.db.select().from(comments).where(inArray(comments.id, commentIds)) : [],
    ]);
    const issueById = new Map(issueRows.map((i) => [i.id, i]));
    const merged = new Set(pulls.filter((p) => p.merged).map((p) => p.issueId));
    const commentById = new Map(commentRows.map((c) => [c.id, c]));
    return rows.map((row) => {
      const r = repos.get(row.repoId)!;
      return {
        row, repo: r.repo, owner: r.owner, perm: r.perm,
        issue: row.issueId === null ? undefined : issueById.get(row.issueId),
        merged: row.issueId !== null && merged.has(row.issueId),
        comment: row.commentId === null ? undefined : commentById.get(row.commentId),
      };
    });
  }
}
