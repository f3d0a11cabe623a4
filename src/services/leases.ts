// Half-done work held by a process as a leased row (pending pushes, repository folder journals): the row
// names its holder and a time until which the holder is presumed alive; the holder renews it while the
// work runs. A row whose lease lapsed belongs to a process that died (or stalled for a whole lease), and
// any live process may take it over: claiming it is one conditional UPDATE, finishing it a DELETE of the
// row by its holder in the transaction that completes the work, so each piece of work is finished once.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, inArray, lt } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import type { Db } from '../db/client.js';

/** This holder's name: unique per service instance, readable in a row (host and pid first). */
export const newHolder = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * The work's lease lapsed and another process took it over (this one stalled for a whole lease): the
 * transaction that would have finished it fails and changes nothing. Answered 503 (try again).
 */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

/** The lease's end when taken or renewed now. */
export const leaseEnd = (leaseMs: number): Date => new Date(Date.now() + leaseMs);

/**
 * Renews a lease every third of its length until the answer is called; a failed renewal is logged (the
 * next one may succeed before the lease lapses).
 */
export function keepRenewed(leaseMs: number, renew: () => Promise<unknown>, log: Logger): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    renew()
      .catch((err: Error) => log.warn({ err: err.message }, 'could not renew a lease'))
      .finally(() => {
        running = false;
      });
  }, Math.max(50, Math.floor(leaseMs / 3)));
  timer.unref();
  return () => clearInterval(timer);
}

/** A table of leased rows: an id, the holder's name and the lease's end. */
type LeasedTable = PgTable & { id: PgColumn; holder: PgColumn; leaseUntil: PgColumn };

/**
 * Claims up to `limit` rows of `table` whose lease lapsed, oldest first, for `holder` (a new lease of
 * `leaseMs`): one conditional UPDATE over rows locked with SKIP LOCKED, so each row goes to one claimer.
 */
export async function claimLapsed<T extends LeasedTable>(db: Db, table: T, holder: string, leaseMs: number, limit: number): Promise<Array<T['$inferSelect']>> {
  const now = new Date();
  const due = db.select({ id: table.id }).from(table as PgTable)
    .where(lt(table.leaseUntil, now))
    .orderBy(table.id)
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db.update(table)
    .set({ holder, leaseUntil: leaseEnd(leaseMs) } as never)
    .where(and(inArray(table.id, due), lt(table.leaseUntil, now)))
    .returning();
  return (claimed as Array<T['$inferSelect'] & { id: number }>).sort((a, b) => a.id - b.id);
}
