// Half-done work held by a process as a leased row (pending pushes, repository folder journals): the row
// names its holder and a time until which the holder is presumed alive; the holder renews it while the
// work runs. A row whose lease lapsed belongs to a process that died (or stalled for a whole lease), and
// any live process may take it over: claiming it is one conditional UPDATE, finishing it a DELETE of the
// row by its holder in the transaction that completes the work, so each piece of work is finished once.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';

/** This holder's name: unique per service instance, readable in a row (host and pid first). */
export const newHolder = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

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
