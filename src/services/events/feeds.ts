// Activity feeds of an organisation, a user and a repository: one index range each (see the activities
// table), newest first, showing only rows of repositories the viewer can see today, and rows of private
// repositories only where the feed includes them (FeedFilter.includePrivate).
import { jsonRow, rowFromJson } from '../../db/jsonRows.js';
import { and, count, desc, eq, gte, inArray, lt, not, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { activities, activityTallies, comments, issues, repositories, teamRepos, users, type ActivityRow, type CommentRow, type IssueRow, type RepoRow, type UserRow } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { Invalid } from '../errors.js';
import { permissionFromColumns, repoGrantFields } from '../repos/access.js';
import { visibleTo } from '../repos/repoQuery.js';
import type { RepoPermission } from '../../permissions/repo.js';

export type FeedScope =
  | { kind: 'org'; orgId: number }
  | { kind: 'user'; userId: number; onlyPerformedBy: boolean }
  | { kind: 'repo'; repoId: number }
  /** The repositories a team reaches: every one of its organization's, or those given it. */
  | { kind: 'team'; orgId: number; teamId: number; allRepositories: boolean };

export interface FeedFilter {
  date?: string;
  /**
   * Gitea's IncludePrivate: whether rows of private repositories show at all (each still only to those who
   * can read the repository). See privateActivityShown.
   */
  includePrivate: boolean;
}

/**
 * Whether a feed shows private repositories' activity to its caller, as Gitea decides it: a user's feed to
 * that user and site administrators, an organisation's to its members and site administrators, a
 * repository's to anyone who may read it (`insider`) — and never to a token without the repository scope,
 * as what happens in a repository (issue titles, commit messages, e-mail addresses) is repository content.
 */
export function privateActivityShown(viewer: UserRow | null, insider: boolean, mayReadRepositories: boolean): boolean {
  return !!viewer && (viewer.isAdmin || insider) && mayReadRepositories;
}

export interface FeedEntry {
  activity: ActivityRow;
  actor: UserRow;
  repo: RepoRow;
  owner: UserRow;
  /** The viewer's permission on the repository, read with the row. */
  perm: RepoPermission;
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

  async list(viewer: UserRow | null, scope: FeedScope, f: FeedFilter, page: { limit: number; offset: number }): Promise<{ rows: FeedEntry[]; total: number }> {
    const { db } = this.deps;
    const visible = f.includePrivate ? visibleTo(viewer) : and(not(repositories.isPrivate), visibleTo(viewer))!;
    // The same scope over feed rows and over their tallies (whose columns partition those rows).
    const scoped = (t: { ownerId: AnyPgColumn; repoId: AnyPgColumn; actUserId: AnyPgColumn }): SQL | undefined => {
      if (scope.kind === 'org') return eq(t.ownerId, scope.orgId);
      if (scope.kind === 'repo') return eq(t.repoId, scope.repoId);
      if (scope.kind === 'team') {
        if (scope.allRepositories) return eq(t.ownerId, scope.orgId);
        return and(eq(t.ownerId, scope.orgId), inArray(t.repoId, db.select({ id: teamRepos.repoId }).from(teamRepos).where(eq(teamRepos.teamId, scope.teamId))));
      }
      return scope.onlyPerformedBy ? eq(t.actUserId, scope.userId) : or(eq(t.actUserId, scope.userId), eq(t.ownerId, scope.userId));
    };
    // As in Gitea, an action shows only when its actor may be seen: a public account's to anyone, a limited
    // one's to signed-in callers, the caller's own, everything to site administrators.
    const actorShown = viewer?.isAdmin
      ? undefined
      : viewer
        ? or(inArray(actUser.visibility, ['public', 'limited']), eq(actUser.id, viewer.id))
        : eq(actUser.visibility, 'public');
    const conds: Array<SQL | undefined> = [visible, actorShown, scoped(activities)];
    if (f.date) {
      const [from, to] = dayOf(f.date);
      conds.push(gte(activities.createdAt, from), lt(activities.createdAt, to));
    }
    const where = and(...conds);
    // The total: one day's rows are one index range, counted directly; a whole feed is the sum of its
    // visible repositories' tallies, not a count of millions of rows.
    const total = f.date
      ? db.select({ n: count() })
        .from(activities)
        .innerJoin(repositories, eq(repositories.id, activities.repoId))
        .innerJoin(users, eq(users.id, repositories.ownerId))
        .innerJoin(actUser, eq(actUser.id, activities.actUserId))
        .where(where)
        .then(([r]) => r?.n ?? 0)
      : db.select({ n: sql<string>`coalesce(sum(${activityTallies.n}), 0)` })
        .from(activityTallies)
        .innerJoin(repositories, eq(repositories.id, activityTallies.repoId))
        .innerJoin(users, eq(users.id, repositories.ownerId))
        .innerJoin(actUser, eq(actUser.id, activityTallies.actUserId))
        .where(and(visible, actorShown, scoped(activityTallies)))
        .then(([r]) => Number(r?.n ?? 0));
    const [jsonRows, n] = await Promise.all([
      db.select({ activity: jsonRow('activities'), actor: jsonRow('act_user'), repo: jsonRow('repositories'), owner: jsonRow('users'), ...repoGrantFields(viewer?.id ?? 0) })
        .from(activities)
        .innerJoin(repositories, eq(repositories.id, activities.repoId))
        .innerJoin(users, eq(users.id, repositories.ownerId))
        .innerJoin(actUser, eq(actUser.id, activities.actUserId))
        .where(where)
        .orderBy(desc(activities.createdAt), desc(activities.id))
        .limit(page.limit)
        .offset(page.offset),
      total,
    ]);
    const rows = jsonRows.map((r) => ({
      ...r, activity: rowFromJson(activities, r.activity), actor: rowFromJson(users, r.actor), repo: rowFromJson(repositories, r.repo), owner: rowFromJson(users, r.owner),
    }));
    const commentIds = rows.map((r) => r.activity.commentId).filter((id): id is number => !!id);
    const found = commentIds.length
      ? await db.select({ comment: comments, issue: issues }).from(comments).innerJoin(issues, eq(issues.id, comments.issueId)).where(inArray(comments.id, commentIds))
      : [];
    const byId = new Map(found.map((c) => [c.comment.id, c]));
    return {
      rows: rows.map((r) => ({
        activity: r.activity, actor: r.actor, repo: r.repo, owner: r.owner, perm: permissionFromColumns(r.repo, r.owner, viewer, r),
        comment: r.activity.commentId ? byId.get(r.activity.commentId) : undefined,
      })),
      total: n,
    };
  }

  /**
   * `user`'s actions of the past 366 days per quarter hour (its start in Unix seconds), oldest first: only
   * in repositories `viewer` may see (one range of the actor index).
   */
  async heatmap(user: UserRow, viewer: UserRow | null): Promise<Array<{ timestamp: number; contributions: number }>> {
    // As in Gitea, a user who hides their activity shows an empty heatmap to everyone but themself and admins.
    if (user.keepActivityPrivate && !(viewer && (viewer.isAdmin || viewer.id === user.id))) return [];
    const since = new Date(Date.now() - 366 * 86_400_000);
    const quarter = sql<string>`(floor(extract(epoch from ${activities.createdAt}) / 900) * 900)::bigint`;
    const rows = await this.deps.db
      .select({ timestamp: quarter, contributions: count() })
      .from(activities)
      .innerJoin(repositories, eq(repositories.id, activities.repoId))
      .innerJoin(users, eq(users.id, repositories.ownerId))
      .where(and(eq(activities.actUserId, user.id), gte(activities.createdAt, since), visibleTo(viewer)))
      .groupBy(quarter)
      .orderBy(quarter);
    return rows.map((r) => ({ timestamp: Number(r.timestamp), contributions: Number(r.contributions) }));
  }
}
