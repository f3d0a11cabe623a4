// Browser sign-in sessions: the cookie carries 32 random bytes, the database their SHA-256, so a copy of
// the table signs nobody in. Read on every request that carries the cookie (no process keeps a copy):
// signing out, a deleted, deactivated or prohibited account count at once on every process.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { users, webSessions, type UserRow } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

export interface SessionHit {
  user: UserRow;
  twoFactorPending: boolean;
}

export class SessionService {
  constructor(private readonly deps: ServiceDeps) {}

  /** A new session for `userId`; answers the cookie's value. */
  async create(userId: number, twoFactorPending: boolean): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.deps.db.insert(webSessions).values({
      idHash: hashId(id), userId, twoFactorPending, expiresAt: new Date(Date.now() + this.deps.config.sessionLifetimeMs),
    });
    // Expired sessions of anyone go now and then (cheap: indexed).
    if (Math.random() < 0.05) await this.deps.db.delete(webSessions).where(lt(webSessions.expiresAt, sql`now()`));
    return id;
  }

  /** The session's user, if the session is live and the account may sign in. */
  async resolve(id: string): Promise<SessionHit | undefined> {
    if (!/^[\w-]{43}$/.test(id)) return undefined;
    const [row] = await this.deps.db
      .select({ user: users, pending: webSessions.twoFactorPending })
      .from(webSessions)
      .innerJoin(users, eq(users.id, webSessions.userId))
      .where(and(eq(webSessions.idHash, hashId(id)), gt(webSessions.expiresAt, sql`now()`)));
    if (!row || !row.user.isActive || row.user.prohibitLogin) return undefined;
    return { user: row.user, twoFactorPending: row.pending };
  }

  async destroy(id: string): Promise<void> {
    await this.deps.db.delete(webSessions).where(eq(webSessions.idHash, hashId(id)));
  }
}
