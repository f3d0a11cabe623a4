// Blocking (Gitea 1.21): a user or an organization blocks a user. The block ends, in its own transaction,
// what ties the two: follows both ways, each one's stars and watches of the other's repositories, the
// other's collaborations on their repositories, assignments to the other's issues and pending transfers
// between them. From then on the blocked user is refused (403 `user is blocked`) where Gitea refuses them:
// `refuseBlocked` below, called by the star, watch, collaborator, issue and comment services.
//
// Exactly once, whichever process writes: a block takes an exclusive transaction lock on the pair of
// accounts (`pairLock`), and every change a block must end (a star, a watch, a collaboration) takes the same
// lock shared before it checks for a block. So a star either commits before the block's transaction deletes
// stars (and is deleted with them) or waits for the block and is refused.
import { and, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import {
  collaborations, issueAssignees, issues, orgMembers, repoTransfers, repoWatches, repositories, stars, userBlocks, users, type UserRow,
} from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Forbidden } from '../errors.js';
import { FollowService, lockPair } from './follows.js';

type Db = ServiceDeps['db'];
type Page = { limit: number; offset: number };

/** Takes the transaction lock of the pair of accounts `a`, `b` (exclusive for a block, shared for what it ends). */
export async function pairLock(tx: Db, a: number, b: number, shared: boolean): Promise<void> {
  const key = `user-pair:${Math.min(a, b)}:${Math.max(a, b)}`;
  if (shared) await tx.execute(sql`select pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`);
  else await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/**
 * Refuses (403 `user is blocked`) `userId` when any of `blockerIds` blocked them. With `lock`, inside the
 * caller's transaction, the pair locks are taken shared first, so a block running at the same time either
 * ends what the caller writes next or is seen here.
 */
export async function refuseBlocked(tx: Db, userId: number, blockerIds: number[], opts: { lock?: boolean; eitherWay?: boolean } = {}): Promise<void> {
  const others = [...new Set(blockerIds)].filter((id) => id !== userId);
  if (others.length === 0) return;
  if (opts.lock) for (const id of others.sort((x, y) => x - y)) await pairLock(tx, userId, id, true);
  const [row] = await tx.select({ one: sql`1` }).from(userBlocks).where(or(
    and(inArray(userBlocks.blockerId, others), eq(userBlocks.blockeeId, userId)),
    opts.eitherWay ? and(eq(userBlocks.blockerId, userId), inArray(userBlocks.blockeeId, others)) : undefined,
  )).limit(1);
  if (row) throw new Forbidden('user is blocked');
}

export class BlockService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The users `blocker` blocked, most recent block first. */
  async list(blocker: UserRow, page: Page): Promise<{ rows: UserRow[]; total: number }> {
    const { db } = this.deps;
    const where = eq(userBlocks.blockerId, blocker.id);
    const [rows, [total]] = await Promise.all([
      db.select({ user: users }).from(userBlocks).innerJoin(users, eq(users.id, userBlocks.blockeeId)).where(where)
        .orderBy(desc(userBlocks.createdAt), desc(userBlocks.blockeeId)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(userBlocks).where(where),
    ]);
    return { rows: rows.map((r) => r.user), total: Number(total?.n ?? 0) };
  }

  async isBlocked(blockerId: number, blockeeId: number): Promise<boolean> {
    const [row] = await this.deps.db.select({ one: sql`1` }).from(userBlocks)
      .where(and(eq(userBlocks.blockerId, blockerId), eq(userBlocks.blockeeId, blockeeId)));
    return !!row;
  }

  /**
   * `blocker` (the caller, or an organization the caller owns: checked by the caller) blocks `blockee`.
   * 400 for an organization, oneself, a user already blocked or a member of the blocking organization.
   */
  async block(actor: UserRow, blocker: UserRow, blockee: UserRow, note: string): Promise<void> {
    if (blockee.type === 'Organization') throw new BadRequest('cannot block an organization');
    if (blocker.id === blockee.id || actor.id === blockee.id) throw new BadRequest('cannot block the user');
    await withTx(this.deps.db, async (tx) => {
      await pairLock(tx, blocker.id, blockee.id, false);
      await lockPair(tx, blocker.id, blockee.id);
      if (await blockedBy(tx, blocker.id, blockee.id)) throw new BadRequest('cannot block the user');
      if (blocker.type === 'Organization') {
        const [member] = await tx.select({ one: sql`1` }).from(orgMembers)
          .where(and(eq(orgMembers.orgId, blocker.id), eq(orgMembers.userId, blockee.id)));
        if (member) throw new BadRequest('cannot block the user');
      }
      await FollowService.endBetween(tx, blocker.id, blockee.id);
      await endStars(tx, blockee.id, blocker.id);
      await endStars(tx, blocker.id, blockee.id);
      await endWatches(tx, blockee.id, blocker.id);
      await endWatches(tx, blocker.id, blockee.id);
      await endAssignments(tx, blockee.id, blocker.id);
      await endAssignments(tx, blocker.id, blockee.id);
      await endCollaborations(tx, blockee.id, blocker.id);
      await endCollaborations(tx, blocker.id, blockee.id);
      await tx.delete(repoTransfers).where(or(
        and(eq(repoTransfers.recipientId, blockee.id), inArray(repoTransfers.repoId, reposOf(tx, blocker.id))),
        and(eq(repoTransfers.recipientId, blocker.id), inArray(repoTransfers.repoId, reposOf(tx, blockee.id))),
      ));
      await tx.insert(userBlocks).values({ blockerId: blocker.id, blockeeId: blockee.id, note });
    });
  }

  /** Ends the block; 400 when there is none, or for an organization or the caller. */
  async unblock(actor: UserRow, blocker: UserRow, blockee: UserRow): Promise<void> {
    if (blockee.type === 'Organization') throw new BadRequest('cannot block an organization');
    if (actor.id === blockee.id) throw new BadRequest('cannot unblock the user');
    const gone = await this.deps.db.delete(userBlocks)
      .where(and(eq(userBlocks.blockerId, blocker.id), eq(userBlocks.blockeeId, blockee.id)))
      .returning({ id: userBlocks.blockeeId });
    if (gone.length === 0) throw new BadRequest('cannot unblock the user');
  }
}

async function blockedBy(tx: Db, blockerId: number, blockeeId: number): Promise<boolean> {
  const [row] = await tx.select({ one: sql`1` }).from(userBlocks)
    .where(and(eq(userBlocks.blockerId, blockerId), eq(userBlocks.blockeeId, blockeeId)));
  return !!row;
}

const reposOf = (tx: Db, ownerId: number) => tx.select({ id: repositories.id }).from(repositories).where(eq(repositories.ownerId, ownerId));

/** `userId`'s stars of `ownerId`'s repositories go, with the repositories' and the user's counters. */
async function endStars(tx: Db, userId: number, ownerId: number): Promise<void> {
  const gone = await tx.delete(stars).where(and(eq(stars.userId, userId), inArray(stars.repoId, reposOf(tx, ownerId))))
    .returning({ repoId: stars.repoId });
  if (gone.length === 0) return;
  await tx.update(repositories).set({ numStars: sql`greatest(${repositories.numStars} - 1, 0)` })
    .where(inArray(repositories.id, gone.map((g) => g.repoId)));
  await tx.update(users).set({ numStars: sql`greatest(${users.numStars} - ${gone.length}, 0)` }).where(eq(users.id, userId));
}

/** `userId`'s watches of `ownerId`'s repositories go, with the repositories' counters. */
async function endWatches(tx: Db, userId: number, ownerId: number): Promise<void> {
  const gone = await tx.delete(repoWatches).where(and(eq(repoWatches.userId, userId), inArray(repoWatches.repoId, reposOf(tx, ownerId))))
    .returning({ repoId: repoWatches.repoId });
  if (gone.length === 0) return;
  await tx.update(repositories).set({ numWatches: sql`greatest(${repositories.numWatches} - 1, 0)` })
    .where(inArray(repositories.id, gone.map((g) => g.repoId)));
}

/** `userId` is no longer assigned to issues of `ownerId`'s repositories. */
async function endAssignments(tx: Db, userId: number, ownerId: number): Promise<void> {
  await tx.delete(issueAssignees).where(and(
    eq(issueAssignees.userId, userId),
    inArray(issueAssignees.issueId, tx.select({ id: issues.id }).from(issues).where(inArray(issues.repoId, reposOf(tx, ownerId)))),
  ));
}

/** `userId` is no longer a collaborator of `ownerId`'s repositories. */
async function endCollaborations(tx: Db, userId: number, ownerId: number): Promise<void> {
  await tx.delete(collaborations).where(and(eq(collaborations.userId, userId), inArray(collaborations.repoId, reposOf(tx, ownerId))));
}
