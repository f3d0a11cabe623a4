// Following (Gitea's follow table): who follows whom. `users.num_followers` and `num_following` move with
// the rows in the same statement (a trigger, see migration 0027), so every path that removes a follow
// (unfollowing, blocking, a deleted account) keeps them exact.
import { and, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { follows, userBlocks, users, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden } from '../errors.js';
import { accountVisibleTo } from './visibility.js';

type Page = { limit: number; offset: number };

export class FollowService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The accounts following `user` that `viewer` may see, most recent follow first. */
  followers(user: UserRow, viewer: UserRow | null, page: Page): Promise<{ rows: UserRow[]; total: number }> {
    return this.list(eq(follows.followId, user.id), follows.userId, viewer, page);
  }

  /** The accounts `user` follows that `viewer` may see, most recent follow first. */
  following(user: UserRow, viewer: UserRow | null, page: Page): Promise<{ rows: UserRow[]; total: number }> {
    return this.list(eq(follows.userId, user.id), follows.followId, viewer, page);
  }

  private async list(where: ReturnType<typeof eq>, other: typeof follows.userId, viewer: UserRow | null, page: Page) {
    const { db } = this.deps;
    const cond = and(where, accountVisibleTo(viewer));
    const [rows, [total]] = await Promise.all([
      db.select({ user: users }).from(follows).innerJoin(users, eq(users.id, other)).where(cond)
        .orderBy(desc(follows.createdAt), desc(users.id)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(follows).innerJoin(users, eq(users.id, other)).where(cond),
    ]);
    return { rows: rows.map((r) => r.user), total: Number(total?.n ?? 0) };
  }

  async isFollowing(userId: number, followId: number): Promise<boolean> {
    const [row] = await this.deps.db.select({ one: sql`1` }).from(follows)
      .where(and(eq(follows.userId, userId), eq(follows.followId, followId)));
    return !!row;
  }

  /**
   * `actor` follows `target`. Oneself, or one already followed: nothing changes. Refused (403) when either
   * has blocked the other. Both accounts' rows are locked first, as a block locks them (lockPair), so a
   * follow and a block between the same two accounts take turns and a block always ends the follow.
   */
  async follow(actor: UserRow, target: UserRow): Promise<void> {
    if (actor.id === target.id) return;
    await withTx(this.deps.db, async (tx) => {
      await lockPair(tx, actor.id, target.id);
      if (await blockedEitherWay(tx, actor.id, target.id)) throw new Forbidden('user has been blocked');
      await tx.insert(follows).values({ userId: actor.id, followId: target.id }).onConflictDoNothing();
    });
  }

  async unfollow(actor: UserRow, target: UserRow): Promise<void> {
    await this.deps.db.delete(follows).where(and(eq(follows.userId, actor.id), eq(follows.followId, target.id)));
  }

  /** Ends follows in both directions between two accounts (a block), inside the caller's transaction. */
  static endBetween(tx: Db, a: number, b: number) {
    return tx.delete(follows).where(or(
      and(eq(follows.userId, a), eq(follows.followId, b)),
      and(eq(follows.userId, b), eq(follows.followId, a)),
    ));
  }
}

type Db = ServiceDeps['db'];

/** Locks two accounts' rows in id order (follows and blocks between them take turns). */
export async function lockPair(tx: Db, a: number, b: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(inArray(users.id, [a, b])).orderBy(users.id).for('no key update');
}

/** Whether `a` blocked `b` or `b` blocked `a`. */
export async function blockedEitherWay(tx: Db, a: number, b: number): Promise<boolean> {
  const [row] = await tx.select({ one: sql`1` }).from(userBlocks).where(or(
    and(eq(userBlocks.blockerId, a), eq(userBlocks.blockeeId, b)),
    and(eq(userBlocks.blockerId, b), eq(userBlocks.blockeeId, a)),
  )).limit(1);
  return !!row;
}
