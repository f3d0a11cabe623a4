// TOTP two-factor authentication as Gitea has it (RFC 6238 through `otpauth`: SHA-1, 6 digits, 30 s,
// one step of clock skew either way): enrolment confirmed by a first passcode, a scratch code shown once
// that signs in instead of a passcode (and is then used up), a passcode accepted once.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, ne, or } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { twoFactors } from '../../db/schema/index.js';
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

export class TwoFactorService {
  /** Wrong passcodes and scratch codes count like wrong passwords (the same lock-out). */
  private readonly throttle: LoginThrottle;

  constructor(private readonly deps: ServiceDeps) {
    this.throttle = new LoginThrottle(deps);
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
    const [row] = await this.deps.db
      .insert(twoFactors)
      .values({ userId, secret, scratchHash: hash(scratch), lastUsedPasscode: passcode.trim() })
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
    const ok = /^\d{6}$/.test(code) && totp(row.secret, username).validate({ token: code, window: 1 }) !== null && row.lastUsedPasscode !== code;
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
    return /^\d{6}$/.test(code) && totp(row.secret, 'api').validate({ token: code, window: 1 }) !== null;
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
