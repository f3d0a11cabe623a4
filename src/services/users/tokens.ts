// Personal access tokens: 40 hex characters shown once, stored as SHA-256, with Gitea's scopes.
import { jsonRow, rowFromJson } from '../../db/jsonRows.js';
import { createHash, randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { accessTokens, users, type AccessTokenRow, type UserRow } from '../../db/schema/index.js';
import { changesOf } from '../../db/changes.js';
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

/**
 * How long a token's answer (its row and its user's) is reused. Not what keeps it fresh: before an entry
 * is used, the database's change feed (src/db/changes.ts) says whether users or access_tokens were
 * written since it was read, by this process or any other, counting every write acknowledged before the
 * request arrived (#31). The limit only bounds how long an unused entry sits in memory.
 */
export const tokenCacheMs = 60_000;
const tokenCacheMax = 10_000;

/** How often the uses of tokens are written: `last_used_at` is at most this stale, and never written on a request's path. */
export const tokenUseFlushMs = 60_000;

export class TokenService {
  /** Uses seen since the last flush: token id → when. */
  private readonly uses = new Map<number, Date>();
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** token hash → a recent answer, with when and at which table generations it was read. */
  private readonly recent = new Map<string, { hit: { user: UserRow; token: AccessTokenRow } | undefined; at: number; gen: number }>();

  constructor(private readonly deps: ServiceDeps) {}

  /** The tables the cached answers are copied from. */
  private static readonly sources = ['users', 'access_tokens'] as const;

  /** The token's owner and row from the database, or from an earlier read nothing has changed since. */
  private async lookup(hash: string): Promise<{ user: UserRow; token: AccessTokenRow } | undefined> {
    // Unknown when the change feed cannot answer (the database is unreachable): read without the cache.
    const gen = await changesOf(this.deps.db).version(TokenService.sources).catch((err) => {
      this.deps.log.warn({ err }, 'the change feed did not answer; authenticating without the cache');
      return undefined;
    });
    const now = Date.now();
    const cached = this.recent.get(hash);
    if (gen !== undefined && cached && cached.gen === gen && now - cached.at < tokenCacheMs) return cached.hit;
    const [row] = await this.byHash.execute({ hash });
    const hit = row ? { user: rowFromJson(users, row.user), token: rowFromJson(accessTokens, row.token) } : undefined;
    this.recent.delete(hash);
    if (this.recent.size >= tokenCacheMax) this.recent.delete(this.recent.keys().next().value!);
    // Kept at the version read before the query: a write that raced it makes the entry stale at once.
    if (hit && gen !== undefined) this.recent.set(hash, { hit, at: now, gen });
    return hit;
  }

  /** The hot query of every token-authenticated request, built once. */
  private byHashQuery: ReturnType<TokenService['prepareByHash']> | undefined;
  private get byHash() {
    return (this.byHashQuery ??= this.prepareByHash());
  }

  private prepareByHash() {
    return this.deps.db
    .select({ user: jsonRow('users'), token: jsonRow('access_tokens') })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(eq(accessTokens.tokenHash, sql.placeholder('hash')))
    .prepare('token_by_hash');
  }

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
    await this.flushUses();
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

  /** The token's owner and row, or undefined. The use is remembered and written by `flushUses`. */
  async resolve(token: string): Promise<{ user: UserRow; token: AccessTokenRow } | undefined> {
    const hit = await this.lookup(hashToken(token));
    if (!hit) return undefined;
    const now = new Date();
    const last = this.uses.get(hit.token.id) ?? hit.token.lastUsedAt;
    if (!last || now.getTime() - last.getTime() > tokenUseFlushMs) {
      this.uses.set(hit.token.id, now);
      this.timer ??= setTimeout(() => void this.flushUses().catch((err) => this.deps.log.warn({ err }, 'recording token uses failed')), tokenUseFlushMs).unref();
    }
    return hit;
  }

  /** Writes the remembered uses in one statement per distinct time (a minute's worth at a time). */
  async flushUses(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    if (this.uses.size === 0) return;
    const batch = [...this.uses];
    this.uses.clear();
    const byTime = new Map<number, number[]>();
    for (const [id, at] of batch) byTime.set(at.getTime(), [...(byTime.get(at.getTime()) ?? []), id]);
    this.flushing = (async () => {
      for (const [at, ids] of byTime) {
        const when = new Date(at);
        await this.deps.db
          .update(accessTokens)
          .set({ lastUsedAt: when })
          .where(and(inArray(accessTokens.id, ids), or(isNull(accessTokens.lastUsedAt), lt(accessTokens.lastUsedAt, when))));
      }
    })();
    try {
      await this.flushing;
    } finally {
      this.flushing = undefined;
    }
  }
}
