// Stars: who starred which repository. `repositories.num_stars` and the starrer's `users.num_stars` are kept
// with the star rows, in the same transaction, so they stay exact however stars and unstars interleave.
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { repositories, stars, users, type UserRow } from '../../db/schema/index.js';
import { jsonRow, rowFromJson } from '../../db/jsonRows.js';
import { withTx } from '../../db/tx.js';
import type { ServiceDeps } from '../context.js';
import { pairLock, refuseBlocked } from '../users/blocks.js';
import { permissionFromColumns, repoGrantFields } from './access.js';
import { visibleTo } from './repoQuery.js';
import type { LoadedRepo, RepoListRow } from './loadedRepo.js';

export class StarService {
  constructor(private readonly deps: ServiceDeps) {}

  async isStarring(loaded: LoadedRepo, user: UserRow): Promise<boolean> {
    const [row] = await this.deps.db.select({ one: sql`1` }).from(stars).where(and(eq(stars.repoId, loaded.repo.id), eq(stars.userId, user.id)));
    return !!row;
  }

  /**
   * Idempotent: the counters move only when a row was really added. 403 (`user is blocked`) when the
   * repository's owner blocked the user (a block running at the same time waits, then ends the star).
   */
  async star(loaded: LoadedRepo, user: UserRow): Promise<void> {
    await withTx(this.deps.db, async (tx) => {
      await refuseBlocked(tx, user.id, [loaded.owner.id], { lock: true });
      const added = await tx.insert(stars).values({ userId: user.id, repoId: loaded.repo.id }).onConflictDoNothing().returning({ repoId: stars.repoId });
      if (added.length === 0) return;
      await tx.update(repositories).set({ numStars: sql`${repositories.numStars} + 1` }).where(eq(repositories.id, loaded.repo.id));
      await tx.update(users).set({ numStars: sql`${users.numStars} + 1` }).where(eq(users.id, user.id));
    });
  }

  /** Idempotent: the counters move only when a row was really removed. */
  async unstar(loaded: LoadedRepo, user: UserRow): Promise<void> {
    await withTx(this.deps.db, async (tx) => {
      // A block between the two ends stars too: it goes first, so its row locks come in its order.
      if (user.id !== loaded.owner.id) await pairLock(tx, user.id, loaded.owner.id, true);
      const gone = await tx.delete(stars).where(and(eq(stars.repoId, loaded.repo.id), eq(stars.userId, user.id))).returning({ repoId: stars.repoId });
      if (gone.length === 0) return;
      await tx.update(repositories).set({ numStars: sql`greatest(${repositories.numStars} - 1, 0)` }).where(eq(repositories.id, loaded.repo.id));
      await tx.update(users).set({ numStars: sql`greatest(${users.numStars} - 1, 0)` }).where(eq(users.id, user.id));
    });
  }

  /** The users who starred the repository, oldest star first. */
  async stargazers(loaded: LoadedRepo, page: { limit: number; offset: number }): Promise<{ rows: UserRow[]; total: number }> {
    const where = eq(stars.repoId, loaded.repo.id);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select({ user: users }).from(stars).innerJoin(users, eq(users.id, stars.userId)).where(where)
        .orderBy(asc(stars.createdAt), asc(stars.userId)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(stars).where(where),
    ]);
    return { rows: rows.map((r) => r.user), total: Number(total?.n ?? 0) };
  }

  /**
   * The repositories `starrer` starred that `viewer` may see, most recent star first, each with the viewer's
   * permission read in the same query. As Gitea, someone else's list holds public repositories only.
   */
  async starred(starrer: UserRow, viewer: UserRow | null, page: { limit: number; offset: number }): Promise<{ rows: RepoListRow[]; total: number }> {
    const { db } = this.deps;
    const where = and(
      eq(stars.userId, starrer.id),
      visibleTo(viewer),
      viewer?.id === starrer.id ? undefined : eq(repositories.isPrivate, false),
    );
    const [rows, [total]] = await Promise.all([
      db.select({ repoJson: jsonRow('repositories'), ownerJson: jsonRow('users'), ...repoGrantFields(viewer?.id ?? 0) })
        .from(stars)
        .innerJoin(repositories, eq(repositories.id, stars.repoId))
        .innerJoin(users, eq(users.id, repositories.ownerId))
        .where(where).orderBy(desc(stars.createdAt), desc(stars.repoId)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(stars)
        .innerJoin(repositories, eq(repositories.id, stars.repoId))
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
}
