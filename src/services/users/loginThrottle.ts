// Sign-in throttling per account: the first FREE_FAILURES wrong passwords in a row cost nothing; each
// one after them locks the account's password sign-in for 1, 2, 4, ... seconds, at most MAX_LOCK_SECONDS
// (so the rightful owner waits a minute at worst, while guessing slows to one try a minute). During a
// lock every password attempt is refused with 429 before the password is even checked; tokens are never
// throttled. A correct password clears the record, and so does a quarter of an hour without failures.
// The record is a row, so every process on the database sees the same lock.
import { and, eq, gt, sql } from 'drizzle-orm';
import { loginThrottles } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { TooManyRequests } from '../errors.js';

export const FREE_FAILURES = 5;
export const MAX_LOCK_SECONDS = 60;
const QUIET_MINUTES = 15;

export class LoginThrottle {
  constructor(private readonly deps: ServiceDeps) {}

  /** 429 with the seconds left while the account's password sign-in is locked. */
  async check(userId: number): Promise<void> {
    const [row] = await this.deps.db
      .select({ lockedUntil: loginThrottles.lockedUntil })
      .from(loginThrottles)
      .where(and(eq(loginThrottles.userId, userId), gt(loginThrottles.lockedUntil, sql`now()`)));
    if (row?.lockedUntil) {
      const seconds = Math.max(1, Math.ceil((row.lockedUntil.getTime() - Date.now()) / 1000));
      throw new TooManyRequests('too many failed sign-in attempts for this account; try again later', seconds);
    }
  }

  /** Counts a wrong password (one statement: concurrent failures all count). */
  async failed(userId: number): Promise<void> {
    const t = loginThrottles;
    const fresh = sql`${t.lastFailureAt} < now() - make_interval(mins => ${QUIET_MINUTES})`;
    const failures = sql`case when ${fresh} then 1 else ${t.failures} + 1 end`;
    await this.deps.db
      .insert(t)
      .values({ userId, failures: 1, lastFailureAt: sql`now()`, lockedUntil: null })
      .onConflictDoUpdate({
        target: t.userId,
        set: {
          failures,
          lastFailureAt: sql`now()`,
          lockedUntil: sql`case when ${failures} > ${FREE_FAILURES}
            then now() + make_interval(secs => least(power(2, ${failures} - ${FREE_FAILURES} - 1), ${MAX_LOCK_SECONDS}))
            else null end`,
        },
      });
  }

  /** A correct password: the record goes. */
  async succeeded(userId: number): Promise<void> {
    await this.deps.db.delete(loginThrottles).where(eq(loginThrottles.userId, userId));
  }
}
