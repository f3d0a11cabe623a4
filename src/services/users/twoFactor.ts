// TOTP two-factor authentication as Gitea has it (RFC 6238 through `otpauth`: SHA-1, 6 digits, 30 s,
// one step of clock skew either way): enrolment confirmed by a first passcode, a scratch code shown once
// that signs in instead of a passcode (and is then used up), a passcode accepted once. The shared secret
// is stored encrypted under the Actions secrets key (SECRET_KEY, secretBox.ts), bound to its user; a row
// written before that (plain base32) still works and is sealed by `reencrypt` at the next start.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { twoFactors } from '../../db/schema/index.js';
import { open, seal, sealedWith, type SecretKey, type SecretPlace } from '../actions/secretBox.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Invalid } from '../errors.js';
import { LoginThrottle } from './loginThrottle.js';

const hash = (s: string) => createHash('sha256').update(s).digest('hex');
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function totp(secret: string, label: string): TOTP {
  return new TOTP({ issuer: 'anvil', label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

/** Gitea's scratch codes: 10 characters. */
const newScratch = () => randomBytes(8).toString('base64url').replace(/[-_]/g, 'x').slice(0, 10);

/** Where a user's TOTP secret is sealed: no Actions secret has repository -1. */
const placeOf = (userId: number): SecretPlace => ({ ownerId: userId, repoId: -1, name: 'two-factor' });

export class TwoFactorService {
  /** Wrong passcodes and scratch codes count like wrong passwords (the same lock-out). */
  private readonly throttle: LoginThrottle;

  /** `keys`: the secrets key ring, current key first (ActionSettingsService.keys). */
  constructor(private readonly deps: ServiceDeps, private readonly keys: () => Promise<SecretKey[]>) {
    this.throttle = new LoginThrottle(deps);
  }

  /** The stored secret in clear; undefined (and logged) when no configured key opens it. */
  private async secretOf(userId: number, stored: string): Promise<string | undefined> {
    if (sealedWith(stored) === undefined) return stored;
    const value = open(await this.keys(), placeOf(userId), stored);
    if (value === undefined) this.deps.log.warn({ userId, key: sealedWith(stored) }, 'a TOTP secret is under a key that is not configured (SECRET_KEY, SECRET_KEY_PREVIOUS)');
    return value;
  }

  /**
   * Seals every TOTP secret not under the current key (plain ones from before encryption, ones under
   * SECRET_KEY_PREVIOUS); each row rewritten only if unchanged since read, so concurrent starts write it once.
   */
  async reencrypt(): Promise<{ moved: number; unreadable: number }> {
    const keys = await this.keys();
    const current = keys[0]!;
    const stale = await this.deps.db.select().from(twoFactors).where(sql`${twoFactors.secret} not like ${`v1.${current.id}.%`}`);
    let moved = 0;
    let unreadable = 0;
    for (const row of stale) {
      const value = await this.secretOf(row.userId, row.secret);
      if (value === undefined) {
        unreadable++;
        continue;
      }
      const done = await this.deps.db
        .update(twoFactors)
        .set({ secret: seal(current, placeOf(row.userId), value) })
        .where(and(eq(twoFactors.userId, row.userId), eq(twoFactors.secret, row.secret)))
        .returning({ userId: twoFactors.userId });
      moved += done.length;
    }
    return { moved, unreadable };
  }

  async enrolled(userId: number): Promise<boolean> {
    const [row] = await this.deps.db.select({ userId: twoFactors.userId }).from(twoFactors).where(eq(twoFactors.userId, userId));
    return !!row;
  }

  /** A fresh secret to enrol with, and the otpauth:// URI an authenticator app reads. Nothing is stored yet. */
  proposal(username: string): { secret: string; uri: string } {
    const secret = new Secret({ size: 20 }).base32;
    return { secret, uri: totp(secret, username).toString() };
  }

  /** Enrols `secret` when `passcode` is right for it; answers the scratch code (shown once). */
  async enrol(userId: number, username: string, secret: string, passcode: string): Promise<string> {
    if (!/^[A-Z2-7]{16,64}$/.test(secret)) throw new Invalid('invalid secret');
    if (totp(secret, username).validate({ token: passcode.trim(), window: 1 }) === null) throw new Invalid('the passcode is not correct');
    const scratch = newScratch();
    const [current] = await this.keys();
    const [row] = await this.deps.db
      .insert(twoFactors)
      .values({ userId, secret: seal(current!, placeOf(userId), secret), scratchHash: hash(scratch), lastUsedPasscode: passcode.trim() })
      .onConflictDoNothing()
      .returning({ userId: twoFactors.userId });
    if (!row) throw new Conflict('two-factor authentication is already enrolled');
    return scratch;
  }

  async disable(userId: number): Promise<void> {
    await this.deps.db.delete(twoFactors).where(eq(twoFactors.userId, userId));
  }

  /** A new scratch code (the old one stops working); shown once. */
  async regenerateScratch(userId: number): Promise<string> {
    const scratch = newScratch();
    await this.deps.db.update(twoFactors).set({ scratchHash: hash(scratch) }).where(eq(twoFactors.userId, userId));
    return scratch;
  }

  /**
   * Whether `passcode` is the user's current TOTP passcode, not used before (a passcode is accepted once:
   * the conditional update lets exactly one of two concurrent uses through).
   */
  async checkPasscode(userId: number, username: string, passcode: string): Promise<boolean> {
    await this.throttle.check(userId);
    const code = passcode.trim();
    const [row] = await this.deps.db.select().from(twoFactors).where(eq(twoFactors.userId, userId));
    if (!row) return false;
    const secret = await this.secretOf(userId, row.secret);
    const ok = /^\d{6}$/.test(code) && secret !== undefined && totp(secret, username).validate({ token: code, window: 1 }) !== null && row.lastUsedPasscode !== code;
    const used = ok
      ? await this.deps.db
        .update(twoFactors)
        .set({ lastUsedPasscode: code })
        .where(and(eq(twoFactors.userId, userId), or(isNull(twoFactors.lastUsedPasscode), ne(twoFactors.lastUsedPasscode, code))))
        .returning({ last: twoFactors.lastUsedPasscode })
      : [];
    if (used.length !== 1) {
      await this.throttle.failed(userId);
      return false;
    }
    await this.throttle.succeeded(userId);
    return true;
  }

  /**
   * For Basic sign-in on the API (`X-Gitea-OTP`): true when the user has no second factor, or `passcode`
   * is their current one. As Gitea, a passcode may serve several requests within its period here.
   */
  async basicAllowed(userId: number, passcode: string | undefined): Promise<boolean> {
    const [row] = await this.deps.db.select({ secret: twoFactors.secret }).from(twoFactors).where(eq(twoFactors.userId, userId));
    if (!row) return true;
    const code = (passcode ?? '').trim();
    const secret = await this.secretOf(userId, row.secret);
    return /^\d{6}$/.test(code) && secret !== undefined && totp(secret, 'api').validate({ token: code, window: 1 }) !== null;
  }

  /** Whether `code` is the user's scratch code; it is then used up (replaced by one nobody knows). */
  async useScratch(userId: number, code: string): Promise<boolean> {
    await this.throttle.check(userId);
    const [row] = await this.deps.db.select().from(twoFactors).where(eq(twoFactors.userId, userId));
    if (!row) return false;
    const used = sameHash(row.scratchHash, hash(code.trim()))
      ? await this.deps.db
        .update(twoFactors)
        .set({ scratchHash: hash(randomBytes(32).toString('hex')) })
        .where(and(eq(twoFactors.userId, userId), eq(twoFactors.scratchHash, row.scratchHash)))
        .returning({ userId: twoFactors.userId })
      : [];
    if (used.length !== 1) {
      await this.throttle.failed(userId);
      return false;
    }
    await this.throttle.succeeded(userId);
    return true;
  }
}
