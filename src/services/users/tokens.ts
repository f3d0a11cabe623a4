// Personal access tokens: 40 hex characters shown once, stored as SHA-256, with Gitea's scopes.
import { createHash, randomBytes } from 'node:crypto';
import { and, count, desc, eq, lt, or, isNull } from 'drizzle-orm';
import { accessTokens, users, type AccessTokenRow, type UserRow } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Invalid, NotFound, isUniqueViolation } from '../errors.js';

export const scopeCategories = ['admin', 'organization', 'repository', 'issue', 'user', 'notification', 'misc',
  'activitypub', 'package'] as const;
export type ScopeCategory = (typeof scopeCategories)[number];

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const looksLikeToken = (s: string) => /^[0-9a-f]{40}$/i.test(s);

/** Whether `scopes` grant reading (or writing) `category`: `all` grants everything, write implies read. */
export function scopesAllow(scopes: readonly string[], category: ScopeCategory, write: boolean): boolean {
  if (scopes.includes('all')) return true;
  return scopes.includes(`write:${category}`) || (!write && scopes.includes(`read:${category}`));
}

export class TokenService {
  constructor(private readonly deps: ServiceDeps) {}

  async create(userId: number, name: string, scopes: string[]): Promise<{ row: AccessTokenRow; token: string }> {
    const trimmed = name.trim();
    if (!trimmed) throw new Invalid('[name]: Required');
    if (scopes.length === 0) throw new BadRequest('access token must have a scope');
    const token = randomBytes(20).toString('hex');
    const unique = [...new Set(scopes)];
    try {
      const [row] = await this.deps.db
        .insert(accessTokens)
        .values({ userId, name: trimmed, tokenHash: hashToken(token), tokenLastEight: token.slice(-8), scopes: unique })
        .returning();
      return { row: row!, token };
    } catch (err) {
      if (isUniqueViolation(err)) throw new BadRequest('access token name has been used already');
      throw err;
    }
  }

  async list(userId: number, page: { limit: number; offset: number }): Promise<{ rows: AccessTokenRow[]; total: number }> {
    const { db } = this.deps;
    const where = eq(accessTokens.userId, userId);
    const [rows, [total]] = await Promise.all([
      db.select().from(accessTokens).where(where).orderBy(desc(accessTokens.id)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(accessTokens).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** `idOrName`: Gitea accepts the token's id or its name; a name shared by several is ambiguous. */
  async delete(userId: number, idOrName: string): Promise<void> {
    const { db } = this.deps;
    const id = /^\d{1,15}$/.test(idOrName) ? Number(idOrName) : 0;
    const matches = await db
      .select({ id: accessTokens.id })
      .from(accessTokens)
      .where(
        and(
          eq(accessTokens.userId, userId),
          id ? or(eq(accessTokens.id, id), eq(accessTokens.name, idOrName)) : eq(accessTokens.name, idOrName),
        ),
      );
    // An id match wins over a token that happens to be named like a number.
    const target = matches.find((m) => m.id === id) ?? (matches.length === 1 ? matches[0] : undefined);
    if (!target && matches.length > 1) throw new Invalid(`multiple matches for token name '${idOrName}'`);
    if (!target) throw new NotFound();
    await db.delete(accessTokens).where(eq(accessTokens.id, target.id));
  }

  /** The token's owner and row, or undefined. Records the use at most once a minute. */
  async resolve(token: string): Promise<{ user: UserRow; token: AccessTokenRow } | undefined> {
    const { db } = this.deps;
    const [hit] = await db
      .select({ user: users, token: accessTokens })
      .from(accessTokens)
      .innerJoin(users, eq(users.id, accessTokens.userId))
      .where(eq(accessTokens.tokenHash, hashToken(token)));
    if (!hit) return undefined;
    const now = new Date();
    if (!hit.token.lastUsedAt || now.getTime() - hit.token.lastUsedAt.getTime() > 60_000) {
      await db
        .update(accessTokens)
        .set({ lastUsedAt: now })
        .where(
          and(
            eq(accessTokens.id, hit.token.id),
            or(isNull(accessTokens.lastUsedAt), lt(accessTokens.lastUsedAt, new Date(now.getTime() - 60_000))),
          ),
        );
    }
    return hit;
  }
}
