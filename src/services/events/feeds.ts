// Activity feeds of an organisation, a user and a repository: one index range each (see the activities
// table), newest first, showing only rows of repositories the viewer can see today.
import { and, count, desc, eq, gte, inArray, lt, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { activities, comments, issues, repositories, users, type ActivityRow, type CommentRow, type IssueRow, type RepoRow, type UserRow } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { Invalid } from '../errors.js';
import { visibleTo } from '../repos/repoQuery.js';

export type FeedScope = { kind: 'org'; orgId: number } | { kind: 'user'; userId: number; onlyPerformedBy: boolean } | { kind: 'repo'; repoId: number };

export interface FeedEntry {
  activity: ActivityRow;
  actor: UserRow;
  repo: RepoRow;
  owner: UserRow;
  comment?: { comment: CommentRow; issue: IssueRow };
}

const actUser = alias(users, 'act_user');

/** `YYYY-MM-DD` → that UTC day's bounds; 422 for anything else (Gitea ignores it silently). */
function dayOf(date: string): [Date, Date] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const start = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!start || Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== date) throw new Invalid(`[date]: not a date (YYYY-MM-DD): ${date}`);
  return [start, new Date(start.getTime() + 86_400_000)];
}

export class FeedService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(viewer: UserRow | null, scope: FeedScope, f: { date?: string }, page: { limit: number; offset: number }): Promise<{ rows: FeedEntry[]; total: number }> {
    const { db } = this.deps;
    const conds: Array<SQL | undefined> = [visibleTo(db, viewer)];
    if (scope.kind === 'org') conds.push(eq(activities.ownerId, scope.orgId));
    if (scope.kind === 'repo') conds.push(eq(activities.repoId, scope.repoId));
    if (scope.kind === 'user') {
      conds.push(scope.onlyPerformedBy ? eq(activities.actUserId, scope.userId) : or(eq(activities.actUserId, scope.userId), eq(activities.ownerId, scope.userId)));
    }
    if (f.date) {
      const [from, to] = dayOf(f.date);
      conds.push(gte(activities.createdAt, from), lt(activities.createdAt, to));
    }
    const where = and(...conds);
    const [rows, [total]] = await Promise.all([
      db.select({ activity: activities, actor: actUser, repo: repositories, owner: users })
        .from(activities)
        .innerJoin(repositories, eq(repositories.id, activities.repoId))
        .innerJoin(users, eq(users.id, repositories.ownerId))
        .innerJoin(actUser, eq(actUser.id, activities.actUserId))
        .where(where)
        .orderBy(desc(activities.createdAt), desc(activities.id))
        .limit(page.limit)
        .offset(page.offset),
      db.select({ n: count() })
        .from(activities)
        .innerJoin(repositories, eq(repositories.id, activities.repoId))
        .innerJoin(users, eq(users.id, repositories.ownerId))
        .where(where),
    ]);
    const commentIds = rows.map((r) => r.activity.commentId).filter((id): id is number => !!id);
    const found = commentIds.length
      ? await db.select({ comment: comments, issue: issues }).from(comments).innerJoin(issues, eq(issues.id, comments.issueId)).where(inArray(comments.id, commentIds))
      : [];
    const byId = new Map(found.map((c) => [c.comment.id, c]));
    return {
      rows: rows.map((r) => ({ ...r, comment: r.activity.commentId ? byId.get(r.activity.commentId) : undefined })),
      total: total?.n ?? 0,
    };
  }
}
