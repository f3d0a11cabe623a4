// Watching repositories and subscribing to issues: who is notified. A repository's watcher count is kept
// with its rows, in the same transaction.
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import {
  comments, issueAssignees, issueMentions, issueWatches, repoWatches, repositories, users, type IssueRow, type UserRow,
} from '../../db/schema/index.js';
import { jsonRow, rowFromJson } from '../../db/jsonRows.js';
import { withTx } from '../../db/tx.js';
import { canRead, isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, NotFound } from '../errors.js';
import { permissionFromColumns, repoGrantFields, type AccessService } from '../repos/access.js';
import { visibleTo } from '../repos/repoQuery.js';
import type { LoadedRepo, RepoListRow } from '../repos/loadedRepo.js';
import { pairLock, refuseBlocked } from '../users/blocks.js';

export interface Subscription {
  subscribed: boolean;
  createdAt: Date;
}

export class WatchService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
  ) {}

  async watchers(loaded: LoadedRepo, page: { limit: number; offset: number }): Promise<{ rows: UserRow[]; total: number }> {
    const where = eq(repoWatches.repoId, loaded.repo.id);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select({ user: users }).from(repoWatches).innerJoin(users, eq(users.id, repoWatches.userId)).where(where)
        .orderBy(asc(repoWatches.createdAt), asc(repoWatches.userId)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(repoWatches).where(where),
    ]);
    return { rows: rows.map((r) => r.user), total: Number(total?.n ?? 0) };
  }

  /**
   * The repositories `watcher` watches that `viewer` may see, most recently watched first, with the viewer's
   * permission read in the same query. As Gitea, someone else's list holds public repositories only.
   */
  async watched(watcher: UserRow, viewer: UserRow | null, page: { limit: number; offset: number }): Promise<{ rows: RepoListRow[]; total: number }> {
    const { db } = this.deps;
    const where = and(
      eq(repoWatches.userId, watcher.id),
      visibleTo(viewer),
      viewer?.id === watcher.id ? undefined : eq(repositories.isPrivate, false),
    );
    const [rows, [total]] = await Promise.all([
      db.select({ repoJson: jsonRow('repositories'), ownerJson: jsonRow('users'), ...repoGrantFields(viewer?.id ?? 0) })
        .from(repoWatches)
        .innerJoin(repositories, eq(repositories.id, repoWatches.repoId))
        .innerJoin(users, eq(users.id, repositories.ownerId))
        .where(where).orderBy(desc(repoWatches.createdAt), desc(repoWatches.repoId)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(repoWatches)
        .innerJoin(repositories, eq(repositories.id, repoWatches.repoId))
        .innerJoin(users, eq(users.id, repositories.ownerId))
        .where(where),
    ]);
    return {
      rows: rows.map(({ repoJson, ownerJson, ...grants }) => {
        const repo = rowFromJson(repositories, repoJson);
        const owner = rowFromJson(users, ownerJson);
        return { repo, owner, perm: permissionFromColumns(repo, owner, viewer, grants) };
      }),
      total: Number(total?.n ?? 0),
    };
  }

  async watchOf(loaded: LoadedRepo, user: UserRow): Promise<Subscription | undefined> {
    const [row] = await this.deps.db.select().from(repoWatches).where(and(eq(repoWatches.repoId, loaded.repo.id), eq(repoWatches.userId, user.id)));
    return row ? { subscribed: true, createdAt: row.createdAt } : undefined;
  }

  /** 403 (`user is blocked`) when the repository's owner blocked the user. */
  async watch(loaded: LoadedRepo, user: UserRow): Promise<Subscription> {
    await withTx(this.deps.db, async (tx) => {
      await refuseBlocked(tx, user.id, [loaded.owner.id], { lock: true });
      const added = await tx.insert(repoWatches).values({ userId: user.id, repoId: loaded.repo.id }).onConflictDoNothing().returning();
      if (added.length) await tx.update(repositories).set({ numWatches: sql`${repositories.numWatches} + 1` }).where(eq(repositories.id, loaded.repo.id));
    });
    return (await this.watchOf(loaded, user))!;
  }

  async unwatch(loaded: LoadedRepo, user: UserRow): Promise<void> {
    await withTx(this.deps.db, async (tx) => {
      if (user.id !== loaded.owner.id) await pairLock(tx, user.id, loaded.owner.id, true);
      const gone = await tx.delete(repoWatches).where(and(eq(repoWatches.repoId, loaded.repo.id), eq(repoWatches.userId, user.id))).returning();
      if (gone.length) await tx.update(repositories).set({ numWatches: sql`greatest(${repositories.numWatches} - 1, 0)` }).where(eq(repositories.id, loaded.repo.id));
    });
  }

  /** Explicit subscribers of an issue, oldest first. */
  async subscribers(issue: IssueRow, page: { limit: number; offset: number }): Promise<{ rows: UserRow[]; total: number }> {
    const where = and(eq(issueWatches.issueId, issue.id), eq(issueWatches.isWatching, true));
    const [rows, [total]] = await Promise.all([
      this.deps.db.select({ user: users }).from(issueWatches).innerJoin(users, eq(users.id, issueWatches.userId)).where(where)
        .orderBy(asc(issueWatches.createdAt), asc(issueWatches.userId)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(issueWatches).where(where),
    ]);
    return { rows: rows.map((r) => r.user), total: Number(total?.n ?? 0) };
  }

  /** The caller's explicit choice, else whether they watch the repository or take part in the issue. */
  async issueSubscription(loaded: LoadedRepo, issue: IssueRow, user: UserRow): Promise<Subscription> {
    const [explicit] = await this.deps.db.select().from(issueWatches).where(and(eq(issueWatches.issueId, issue.id), eq(issueWatches.userId, user.id)));
    if (explicit) return { subscribed: explicit.isWatching, createdAt: explicit.createdAt };
    const watch = await this.watchOf(loaded, user);
    if (watch) return { subscribed: true, createdAt: watch.createdAt };
    const [part] = await this.deps.db.execute(sql`
      select 1 from ${issueAssignees} where ${issueAssignees.issueId} = ${issue.id} and ${issueAssignees.userId} = ${user.id}
      union all select 1 from ${issueMentions} where ${issueMentions.issueId} = ${issue.id} and ${issueMentions.userId} = ${user.id}
      union all select 1 from ${comments} where ${comments.issueId} = ${issue.id} and ${comments.posterId} = ${user.id} and ${comments.type} = 'comment'
      limit 1`).then((r) => (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows));
    return { subscribed: issue.posterId === user.id || part !== undefined, createdAt: issue.createdAt };
  }

  /**
   * Sets `{user}`'s explicit subscription: the caller for themselves, a repository or site administrator for
   * anyone. Returns whether anything changed. 404 when the user does not exist or cannot read the issue.
   */
  async setIssueSubscription(loaded: LoadedRepo, issue: IssueRow, caller: UserRow, username: string, watching: boolean): Promise<boolean> {
    const [target] = await this.deps.db.select().from(users).where(and(eq(users.lowerName, username.toLowerCase()), eq(users.type, 'User')));
    if (!target) throw new NotFound();
    if (target.id !== caller.id && !caller.isAdmin && !isRepoAdmin(loaded.perm)) {
      throw new Forbidden(`User ${caller.name} is not allowed to ${watching ? 'subscribe' : 'unsubscribe'} ${target.name}`);
    }
    const perm = target.id === caller.id ? loaded.perm : await this.access.repoPermission(loaded.repo, loaded.owner, target);
    if (!canRead(perm, issue.isPull ? 'repo.pulls' : 'repo.issues')) throw new NotFound();
    // As Gitea: nothing is written when the user is already (un)subscribed, explicitly or not.
    if ((await this.issueSubscription(loaded, issue, target)).subscribed === watching) return false;
    await this.deps.db
      .insert(issueWatches)
      .values({ userId: target.id, issueId: issue.id, isWatching: watching })
      .onConflictDoUpdate({ target: [issueWatches.userId, issueWatches.issueId], set: { isWatching: watching, updatedAt: sql`now()` } });
    return true;
  }
}
