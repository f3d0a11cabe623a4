// The OAuth2 provider's records in the database (oidc-provider's Adapter contract, src/web/oauth/), so
// that every process sees the same sessions, codes, grants and tokens; its keys made once and shared; and
// the question the API's authentication asks of an OAuth2 access token.
//
// An access token counts only while its grant exists and its application does (or, for a built-in
// client, is switched on): revoking the grant or deleting the application deletes their rows, and since
// nothing of this is cached in a process (each token request reads its row), that holds on every process
// from the next request on.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { oauth2Applications, oauth2Keys, oauth2Models, orgMembers, teamMembers, teams, users, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { ServiceDeps } from '../context.js';
import { NotFound } from '../errors.js';
import { enabledBuiltIns } from './defaults.js';

export type ModelPayload = Record<string, unknown> & {
  grantId?: string;
  uid?: string;
  userCode?: string;
  clientId?: string;
  accountId?: string;
  consumed?: number;
};

/** Gitea's token scopes that an OAuth2 grant may carry (besides OpenID Connect's own). */
export const grantTokenScopes = ['activitypub', 'admin', 'issue', 'misc', 'notification', 'organization', 'package', 'repository', 'user']
  .flatMap((c) => [`read:${c}`, `write:${c}`]);

/**
 * The token scopes an OAuth2 token acts with: the Gitea scopes its grant named, or `all` when it named
 * none (as Gitea, an authorization that asks for no token scope gives the user's full access).
 */
export function tokenScopesOf(scope: string): string[] {
  const named = scope.split(' ').filter((s) => grantTokenScopes.includes(s) || s === 'all');
  return named.length ? named : ['all'];
}

export interface OAuthTokenHit {
  user: UserRow;
  scopes: string[];
  clientId: string;
  grantId: string;
}

export interface GrantView {
  grantId: string;
  clientId: string;
  applicationName: string;
  scope: string;
  createdAt: Date | null;
}

export class OAuthStore {
  constructor(private readonly deps: ServiceDeps) {}

  async upsert(kind: string, id: string, payload: ModelPayload, expiresInS: number | undefined): Promise<void> {
    const values = {
      kind, id, payload,
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      userCode: payload.userCode ?? null,
      clientId: payload.clientId ?? (kind === 'Client' ? id : null),
      accountId: payload.accountId ?? null,
      expiresAt: expiresInS ? new Date(Date.now() + expiresInS * 1000) : null,
    };
    await this.deps.db
      .insert(oauth2Models)
      .values(values)
      .onConflictDoUpdate({ target: [oauth2Models.kind, oauth2Models.id], set: { ...values, consumedAt: null } });
  }

  private async one(kind: string, where: ReturnType<typeof eq>): Promise<ModelPayload | undefined> {
    const [row] = await this.deps.db
      .select({ payload: oauth2Models.payload, consumedAt: oauth2Models.consumedAt })
      .from(oauth2Models)
      .where(and(eq(oauth2Models.kind, kind), where, or(isNull(oauth2Models.expiresAt), sql`${oauth2Models.expiresAt} > now()`)));
    if (!row) return undefined;
    const payload = row.payload as ModelPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }

  find(kind: string, id: string): Promise<ModelPayload | undefined> {
    return this.one(kind, eq(oauth2Models.id, id));
  }

  findByUid(kind: string, uid: string): Promise<ModelPayload | undefined> {
    return this.one(kind, eq(oauth2Models.uid, uid));
  }

  findByUserCode(kind: string, userCode: string): Promise<ModelPayload | undefined> {
    return this.one(kind, eq(oauth2Models.userCode, userCode));
  }

  /** Marks a code or refresh token used, once: a second use finds it consumed. */
  async consume(kind: string, id: string): Promise<void> {
    await this.deps.db
      .update(oauth2Models)
      .set({ consumedAt: new Date() })
      .where(and(eq(oauth2Models.kind, kind), eq(oauth2Models.id, id), isNull(oauth2Models.consumedAt)));
  }

  async destroy(kind: string, id: string): Promise<void> {
    await this.deps.db.delete(oauth2Models).where(and(eq(oauth2Models.kind, kind), eq(oauth2Models.id, id)));
  }

  /** Everything a grant produced, and the grant itself. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.deps.db.delete(oauth2Models).where(or(eq(oauth2Models.grantId, grantId), and(eq(oauth2Models.kind, 'Grant'), eq(oauth2Models.id, grantId))));
  }

  /** The signing keys and cookie keys: made by the first process to ask, read by every other. */
  async keys(): Promise<{ jwks: { keys: Record<string, unknown>[] }; cookieKeys: string[] }> {
    const read = async () => (await this.deps.db.select().from(oauth2Keys).where(eq(oauth2Keys.id, 1)))[0];
    const found = await read();
    if (found) return { jwks: found.jwks, cookieKeys: found.cookieKeys };
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' } as Record<string, unknown>;
    await this.deps.db
      .insert(oauth2Keys)
      .values({ id: 1, jwks: { keys: [jwk] }, cookieKeys: [randomBytes(32).toString('base64url')] })
      .onConflictDoNothing();
    const row = (await read())!;
    return { jwks: row.jwks, cookieKeys: row.cookieKeys };
  }

  /**
   * The user and scopes of an OAuth2 access token, or undefined: unknown, expired, its grant revoked, its
   * application deleted (or a built-in one switched off), its user gone. One query, never cached.
   */
  async resolveAccessToken(token: string): Promise<OAuthTokenHit | undefined> {
    if (!this.deps.config.oauth2.enabled || token.length > 200) return undefined;
    const builtIns = enabledBuiltIns(this.deps.config.oauth2.defaultApplications).map((a) => a.clientId);
    const grant = sql`exists (select 1 from ${oauth2Models} g where g.kind = 'Grant' and g.id = ${oauth2Models.grantId}
      and (g.expires_at is null or g.expires_at > now()))`;
    const app = builtIns.length
      ? sql`(${oauth2Models.clientId} in ${builtIns} or exists (select 1 from ${oauth2Applications} a where a.client_id = ${oauth2Models.clientId}))`
      : sql`exists (select 1 from ${oauth2Applications} a where a.client_id = ${oauth2Models.clientId})`;
    const [row] = await this.deps.db
      .select({ user: users, payload: oauth2Models.payload, clientId: oauth2Models.clientId, grantId: oauth2Models.grantId })
      .from(oauth2Models)
      .innerJoin(users, sql`${users.id}::text = ${oauth2Models.accountId}`)
      .where(and(eq(oauth2Models.kind, 'AccessToken'), eq(oauth2Models.id, token), sql`${oauth2Models.expiresAt} > now()`, grant, app));
    if (!row) return undefined;
    const scope = typeof row.payload.scope === 'string' ? row.payload.scope : '';
    return { user: row.user, scopes: tokenScopesOf(scope), clientId: row.clientId!, grantId: row.grantId! };
  }

  /** The applications a user has granted access to (Gitea's "Authorized OAuth2 Applications"). */
  async grantsOf(userId: number): Promise<GrantView[]> {
    const rows = await this.deps.db
      .select({ id: oauth2Models.id, clientId: oauth2Models.clientId, payload: oauth2Models.payload, name: oauth2Applications.name })
      .from(oauth2Models)
      .leftJoin(oauth2Applications, eq(oauth2Applications.clientId, oauth2Models.clientId))
      .where(and(eq(oauth2Models.kind, 'Grant'), eq(oauth2Models.accountId, String(userId))))
      .orderBy(desc(oauth2Models.id));
    const builtIns = enabledBuiltIns(this.deps.config.oauth2.defaultApplications);
    return rows.map((r) => {
      const openid = (r.payload.openid as { scope?: string } | undefined)?.scope ?? '';
      const iat = typeof r.payload.iat === 'number' ? new Date(r.payload.iat * 1000) : null;
      return {
        grantId: r.id, clientId: r.clientId ?? '', scope: openid, createdAt: iat,
        applicationName: r.name ?? builtIns.find((b) => b.clientId === r.clientId)?.name ?? r.clientId ?? '',
      };
    });
  }

  /** Revokes one of the user's grants: every token and code it gave goes at once. */
  async revokeGrant(userId: number, grantId: string): Promise<void> {
    await withTx(this.deps.db, async (tx) => {
      const [grant] = await tx
        .delete(oauth2Models)
        .where(and(eq(oauth2Models.kind, 'Grant'), eq(oauth2Models.id, grantId), eq(oauth2Models.accountId, String(userId))))
        .returning({ id: oauth2Models.id });
      if (!grant) throw new NotFound();
      await tx.delete(oauth2Models).where(eq(oauth2Models.grantId, grantId));
    });
  }

  /** Gitea's `groups` claim: the names of the user's organizations, and `org:team` for each of their teams. */
  async groupsOf(userId: number): Promise<string[]> {
    const orgs = alias(users, 'o');
    const [memberOf, teamRows] = await Promise.all([
      this.deps.db.select({ org: orgs.name }).from(orgMembers).innerJoin(orgs, eq(orgs.id, orgMembers.orgId)).where(eq(orgMembers.userId, userId)),
      this.deps.db
        .select({ org: orgs.name, team: teams.name })
        .from(teamMembers)
        .innerJoin(teams, eq(teams.id, teamMembers.teamId))
        .innerJoin(orgs, eq(orgs.id, teamMembers.orgId))
        .where(eq(teamMembers.userId, userId)),
    ]);
    const names = [...memberOf.map((r) => r.org), ...teamRows.map((r) => `${r.org}:${r.team}`)];
    return [...new Set(names)].sort();
  }

  /** Drops expired rows (a cron-like sweep any process may run; deleting twice is harmless). */
  async sweep(): Promise<void> {
    await this.deps.db.delete(oauth2Models).where(lt(oauth2Models.expiresAt, new Date()));
  }

}
