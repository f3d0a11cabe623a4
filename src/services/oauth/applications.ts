// OAuth2 applications a user registers (Gitea's /user/applications/oauth2): a client id (a UUID), a
// secret shown once and kept as its SHA-256, redirect URIs compared exactly, confidential or public.
// Deleting an application, or changing its redirect URIs or kind, ends every grant and token it had.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, count, desc, eq } from 'drizzle-orm';
import { oauth2Applications, oauth2Models, type OAuth2ApplicationRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Invalid, NotFound } from '../errors.js';
import { builtInApplications } from './defaults.js';

export interface ApplicationInput {
  name: string;
  redirectUris: string[];
  confidentialClient?: boolean;
  skipSecondaryAuthorization?: boolean;
}

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Whether `secret` is the one `hash` was made from (constant time). */
export function secretMatches(secret: string, hash: string): boolean {
  if (!hash) return false;
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Gitea's secret format: `gto_` and 32 random bytes in lower-case base32. */
function newSecret(): string {
  const bytes = randomBytes(32);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return `gto_${out}`;
}

/** A redirect URI must be an absolute URL without a fragment; it is then compared exactly, never as a pattern. */
function checkRedirectUris(uris: string[]): string[] {
  if (uris.length === 0) throw new Invalid('[RedirectURIs]: Required');
  for (const uri of uris) {
    let parsed: URL;
    try {
      parsed = new URL(uri);
    } catch {
      throw new BadRequest(`invalid redirect URI: ${uri}`);
    }
    if (parsed.hash || uri.includes('#')) throw new BadRequest(`redirect URI must not have a fragment: ${uri}`);
    if (uri.includes('*')) throw new BadRequest(`redirect URI must not be a wildcard: ${uri}`);
    if (!/^[a-z][a-z0-9+.-]*:$/.test(parsed.protocol) || ['javascript:', 'data:', 'vbscript:', 'file:'].includes(parsed.protocol)) {
      throw new BadRequest(`invalid redirect URI scheme: ${uri}`);
    }
  }
  return [...new Set(uris)];
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new Invalid('[Name]: Required');
  if (trimmed.length > 255) throw new Invalid('[Name]: MaxSize');
  return trimmed;
}

export class OAuthAppService {
  constructor(private readonly deps: ServiceDeps) {}

  async create(userId: number, input: ApplicationInput): Promise<{ row: OAuth2ApplicationRow; secret: string }> {
    const name = checkName(input.name);
    const redirectUris = checkRedirectUris(input.redirectUris);
    const secret = newSecret();
    const [row] = await this.deps.db
      .insert(oauth2Applications)
      .values({
        userId, name, redirectUris, clientId: randomUUID(), clientSecretHash: hashSecret(secret),
        confidentialClient: input.confidentialClient ?? true,
        skipSecondaryAuthorization: input.skipSecondaryAuthorization ?? false,
      })
      .returning();
    return { row: row!, secret };
  }

  async list(userId: number, page: { limit: number; offset: number }): Promise<{ rows: OAuth2ApplicationRow[]; total: number }> {
    const where = eq(oauth2Applications.userId, userId);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(oauth2Applications).where(where).orderBy(desc(oauth2Applications.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(oauth2Applications).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** The user's application; someone else's is a 404. */
  async get(userId: number, id: number): Promise<OAuth2ApplicationRow> {
    const [row] = await this.deps.db
      .select()
      .from(oauth2Applications)
      .where(and(eq(oauth2Applications.id, id), eq(oauth2Applications.userId, userId)));
    if (!row) throw new NotFound();
    return row;
  }

  /**
   * As Gitea: every field is replaced and a new secret is made (shown in the answer, once). The old secret
   * stops working; grants and tokens stay unless the redirect URIs or the client's kind changed.
   */
  async update(userId: number, id: number, input: ApplicationInput): Promise<{ row: OAuth2ApplicationRow; secret: string }> {
    const name = checkName(input.name);
    const redirectUris = checkRedirectUris(input.redirectUris);
    const secret = newSecret();
    return withTx(this.deps.db, async (tx) => {
      const [old] = await tx
        .select()
        .from(oauth2Applications)
        .where(and(eq(oauth2Applications.id, id), eq(oauth2Applications.userId, userId)))
        .for('update');
      if (!old) throw new NotFound();
      const confidentialClient = input.confidentialClient ?? true;
      const [row] = await tx
        .update(oauth2Applications)
        .set({
          name, redirectUris, confidentialClient, clientSecretHash: hashSecret(secret),
          skipSecondaryAuthorization: input.skipSecondaryAuthorization ?? false, updatedAt: new Date(),
        })
        .where(eq(oauth2Applications.id, id))
        .returning();
      const narrowed = old.redirectUris.some((u) => !redirectUris.includes(u)) || old.confidentialClient !== confidentialClient;
      if (narrowed) await tx.delete(oauth2Models).where(eq(oauth2Models.clientId, old.clientId));
      return { row: row!, secret };
    });
  }

  /** The application goes, and with it every grant, code and token it was given, in one transaction. */
  async delete(userId: number, id: number): Promise<void> {
    await withTx(this.deps.db, async (tx) => {
      const [row] = await tx
        .delete(oauth2Applications)
        .where(and(eq(oauth2Applications.id, id), eq(oauth2Applications.userId, userId)))
        .returning({ clientId: oauth2Applications.clientId });
      if (!row) throw new NotFound();
      await tx.delete(oauth2Models).where(eq(oauth2Models.clientId, row.clientId));
    });
  }

  /** An application by its client id (any owner), for the provider. */
  async byClientId(clientId: string): Promise<OAuth2ApplicationRow | undefined> {
    if (builtInApplications.some((a) => a.clientId === clientId)) return undefined;
    const [row] = await this.deps.db.select().from(oauth2Applications).where(eq(oauth2Applications.clientId, clientId));
    return row;
  }
}
