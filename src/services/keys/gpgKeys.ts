// Users' GPG keys, read with openpgp: the primary key and its subkeys, their ids, capabilities (key flags
// of their self-signatures), creation and expiry, and the identity e-mails. A key is accepted when one of
// its e-mails is an activated address of the user, or when the user signs the verification token with it
// (then it is `verified`). The token is Gitea's: a hash of the minute and the user, the current and the
// previous minute's both accepted. openpgp is loaded on first use: most processes never read a GPG key.
import { createHash } from 'node:crypto';
import { and, asc, count, eq, inArray, or } from 'drizzle-orm';
import type * as OpenPGP from 'openpgp';
import { emailAddresses, gpgKeys, type GpgKeyRow, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { ServiceDeps } from '../context.js';
import { Invalid, NotFound, isUniqueViolation } from '../errors.js';

export interface GpgKeyView {
  key: GpgKeyRow;
  subkeys: GpgKeyRow[];
  /** Identity e-mails with whether each is an activated address of the owner. */
  emails: Array<{ email: string; verified: boolean }>;
}

/** Gitea's VerificationToken: sha256 of the minute (shifted by `minutes`), the user's creation, name, e-mail and id. */
export function verificationToken(user: UserRow, minutes: number, now = new Date()): string {
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000 + minutes * 60_000);
  const stamp = (d: Date) => d.toUTCString();
  return createHash('sha256').update(`${stamp(minute)}:${stamp(user.createdAt)}:${user.name}:${user.email}:${user.id}`).digest('hex');
}

const pgp = () => import('openpgp');
const hexId = (id: OpenPGP.KeyID) => id.toHex().toUpperCase();

interface ParsedKeyPart {
  keyId: string;
  canSign: boolean;
  canEncryptComms: boolean;
  canEncryptStorage: boolean;
  canCertify: boolean;
  createdAt: Date;
  expiresAt: Date | null;
}

function flagsOf(flags: number | undefined, fallback: number): Omit<ParsedKeyPart, 'keyId' | 'createdAt' | 'expiresAt'> {
  const f = flags ?? fallback;
  return { canCertify: !!(f & 0x01), canSign: !!(f & 0x02), canEncryptComms: !!(f & 0x04), canEncryptStorage: !!(f & 0x08) };
}

const expiry = (t: Date | number | null): Date | null => (t instanceof Date ? t : null);

async function readKey(armored: string): Promise<{ key: OpenPGP.PublicKey; primary: ParsedKeyPart; subkeys: ParsedKeyPart[]; emails: string[] }> {
  const openpgp = await pgp();
  let key: OpenPGP.PublicKey;
  try {
    const keys = await openpgp.readKeys({ armoredKeys: armored.trim() });
    const first = keys[0];
    if (!first) throw new Error('no key');
    if (first.isPrivate()) throw new Invalid('this is a private key: give its public key (gpg --armor --export) instead');
    key = first as OpenPGP.PublicKey;
  } catch (err) {
    if (err instanceof Invalid) throw err;
    throw new Invalid('the key is not an armored OpenPGP public key (gpg --armor --export KEYID)');
  }
  const selfFlags = key.users.flatMap((u) => u.selfCertifications.map((s) => s.keyFlags?.[0])).find((f) => f !== undefined);
  const primary: ParsedKeyPart = {
    keyId: hexId(key.getKeyID()),
    ...flagsOf(selfFlags, 0x03),
    createdAt: key.getCreationTime(),
    expiresAt: expiry(await key.getExpirationTime().catch(() => null)),
  };
  const subkeys: ParsedKeyPart[] = [];
  for (const sub of key.subkeys) {
    const binding = sub.bindingSignatures[0];
    subkeys.push({
      keyId: hexId(sub.getKeyID()),
      ...flagsOf(binding?.keyFlags?.[0], 0x0c),
      createdAt: sub.getCreationTime(),
      expiresAt: expiry(await sub.getExpirationTime().catch(() => null)),
    });
  }
  const emails = [...new Set(key.users.map((u) => u.userID?.email?.trim()).filter((e): e is string => !!e))];
  return { key, primary, subkeys, emails };
}

/** Whether `armoredSignature` is a detached signature by `key` of the token (or the token and a newline). */
async function signs(key: OpenPGP.PublicKey, armoredSignature: string, tokens: string[]): Promise<boolean> {
  const openpgp = await pgp();
  let signature: OpenPGP.Signature;
  try {
    signature = await openpgp.readSignature({ armoredSignature: armoredSignature.trim() });
  } catch {
    return false;
  }
  for (const token of tokens) {
    for (const text of [token, `${token}\n`, `${token}\r\n`]) {
      for (const message of [await openpgp.createMessage({ binary: new TextEncoder().encode(text) }), await openpgp.createMessage({ text })]) {
        try {
          const { signatures } = await openpgp.verify({ message, signature, verificationKeys: key, expectSigned: true });
          await signatures[0]!.verified;
          return true;
        } catch {
          // not this form
        }
      }
    }
  }
  return false;
}

export class GpgKeyService {
  constructor(private readonly deps: ServiceDeps) {}

  tokenFor(user: UserRow): string {
    return verificationToken(user, 1);
  }

  private tokens(user: UserRow): string[] {
    return [verificationToken(user, 1), verificationToken(user, 0)];
  }

  private async activatedEmails(user: UserRow): Promise<Set<string>> {
    const rows = await this.deps.db
      .select({ email: emailAddresses.lowerEmail })
      .from(emailAddresses)
      .where(and(eq(emailAddresses.userId, user.id), eq(emailAddresses.isActivated, true)));
    return new Set(rows.map((r) => r.email));
  }

  /** Spec 29: 404 (empty) when no e-mail of the key is the user's and no signature proves it; 422 for a bad key, a taken id or a bad signature. */
  async add(user: UserRow, input: { armoredPublicKey: string; armoredSignature?: string }): Promise<GpgKeyView> {
    const parsed = await readKey(input.armoredPublicKey);
    let verified = false;
    if (input.armoredSignature?.trim()) {
      if (!(await signs(parsed.key, input.armoredSignature, this.tokens(user)))) {
        throw new Invalid(`The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: ${this.tokenFor(user)}`);
      }
      verified = true;
    } else {
      const mine = await this.activatedEmails(user);
      if (!parsed.emails.some((e) => mine.has(e.toLowerCase()))) {
        throw new NotFound(`None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ${this.tokenFor(user)}`);
      }
    }
    const ids = [parsed.primary.keyId, ...parsed.subkeys.map((s) => s.keyId)];
    try {
      const id = await withTx(this.deps.db, async (tx) => {
        const taken = await tx.select({ id: gpgKeys.id }).from(gpgKeys).where(inArray(gpgKeys.keyId, ids));
        if (taken.length) throw new Invalid('A key with the same id already exists');
        const [primary] = await tx
          .insert(gpgKeys)
          .values({ ownerId: user.id, ...parsed.primary, content: input.armoredPublicKey.trim(), emails: parsed.emails, verified })
          .returning({ id: gpgKeys.id });
        if (parsed.subkeys.length) {
          await tx.insert(gpgKeys).values(parsed.subkeys.map((s) => ({ ownerId: user.id, ...s, primaryKeyId: parsed.primary.keyId, verified })));
        }
        return primary!.id;
      });
      return this.get(user, id);
    } catch (err) {
      if (isUniqueViolation(err)) throw new Invalid('A key with the same id already exists');
      throw err;
    }
  }

  async list(user: UserRow, page: { limit: number; offset: number }): Promise<{ rows: GpgKeyView[]; total: number }> {
    const where = and(eq(gpgKeys.ownerId, user.id), eq(gpgKeys.primaryKeyId, ''));
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(gpgKeys).where(where).orderBy(asc(gpgKeys.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(gpgKeys).where(where),
    ]);
    return { rows: await this.views(user, rows), total: total?.n ?? 0 };
  }

  /** Spec 30: the user's key by id; a subkey's id finds its primary key. */
  async get(user: UserRow, id: number): Promise<GpgKeyView> {
    const [row] = await this.deps.db.select().from(gpgKeys).where(and(eq(gpgKeys.id, id), eq(gpgKeys.ownerId, user.id)));
    if (!row) throw new NotFound();
    // A subkey's own id answers the subkey's row, as Gitea does: no e-mails, no subkeys of its own.
    if (row.primaryKeyId) return { key: row, subkeys: [], emails: [] };
    return (await this.views(user, [row]))[0]!;
  }

  async delete(user: UserRow, id: number): Promise<void> {
    await withTx(this.deps.db, async (tx) => {
      const [gone] = await tx.delete(gpgKeys).where(and(eq(gpgKeys.id, id), eq(gpgKeys.ownerId, user.id), eq(gpgKeys.primaryKeyId, ''))).returning();
      if (!gone) throw new NotFound();
      await tx.delete(gpgKeys).where(and(eq(gpgKeys.ownerId, user.id), eq(gpgKeys.primaryKeyId, gone.keyId)));
    });
  }

  /** POST /user/gpg_key_verify: the caller's key signs the current or previous token. */
  async verify(user: UserRow, keyId: string, armoredSignature: string): Promise<GpgKeyView> {
    const wanted = keyId.trim().replace(/^0+/, '').toUpperCase();
    const rows = await this.deps.db.select().from(gpgKeys).where(and(eq(gpgKeys.ownerId, user.id), eq(gpgKeys.primaryKeyId, '')));
    const row = rows.find((r) => r.keyId.replace(/^0+/, '') === wanted);
    if (!wanted || !row) throw new NotFound();
    const { key } = await readKey(row.content);
    if (!(await signs(key, armoredSignature, this.tokens(user)))) {
      throw new Invalid(`The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: ${this.tokenFor(user)}`);
    }
    await this.deps.db
      .update(gpgKeys)
      .set({ verified: true })
      .where(and(eq(gpgKeys.ownerId, user.id), or(eq(gpgKeys.keyId, row.keyId), eq(gpgKeys.primaryKeyId, row.keyId))));
    return this.get(user, row.id);
  }

  /** Primary keys with their subkeys and e-mails: two queries for a page. */
  private async views(user: UserRow, primaries: GpgKeyRow[]): Promise<GpgKeyView[]> {
    if (primaries.length === 0) return [];
    const [subs, mine] = await Promise.all([
      this.deps.db.select().from(gpgKeys).where(and(eq(gpgKeys.ownerId, user.id), inArray(gpgKeys.primaryKeyId, primaries.map((p) => p.keyId)))).orderBy(asc(gpgKeys.id)),
      this.activatedEmails(user),
    ]);
    return primaries.map((key) => ({
      key,
      subkeys: subs.filter((s) => s.primaryKeyId === key.keyId),
      emails: key.emails.map((email) => ({ email, verified: mine.has(email.toLowerCase()) })),
    }));
  }
}
