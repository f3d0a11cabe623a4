// Accounts: creation with Gitea's rules, look-ups, and password sign-in.
import { createHash } from 'node:crypto';
import { and, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { readAlone, type JsonRead } from '../../db/together.js';
import { emailAddresses, users, type UserRow, type Visibility } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { updateUserSettings, type UserSettingsInput } from './settings.js';
import type { ServiceDeps } from '../context.js';
import { BadRequest, Invalid, isUniqueViolation } from '../errors.js';
import { checkEmail, checkOwnerName } from '../names.js';
import { LoginThrottle } from './loginThrottle.js';
import { hashPassword, verifyPassword } from './passwords.js';

export interface CreateUserInput {
  username: string;
  email: string;
  password?: string;
  fullName?: string;
  loginName?: string;
  /** Gitea's default for admin-created users is true. */
  mustChangePassword?: boolean;
  restricted?: boolean;
  visibility?: Visibility | '';
  sourceId?: number;
  createdAt?: Date;
  isAdmin?: boolean;
}

const verified = new Map<string, { userId: number; passwordHash: string; expires: number }>();

export class UserService {
  private readonly throttle: LoginThrottle;

  constructor(private readonly deps: ServiceDeps) {
    this.throttle = new LoginThrottle(deps);
  }

  /** The caller's own settings; only the fields given change. */
  updateSettings(user: UserRow, input: UserSettingsInput): Promise<UserRow> {
    return updateUserSettings(this.deps, user, input);
  }

  async create(input: CreateUserInput): Promise<UserRow> {
    const { db, config } = this.deps;
    checkOwnerName(input.username);
    checkEmail(input.email);
    // anvil has no external authentication sources yet: only local (0) exists.
    if (input.sourceId) throw new Invalid(`login source does not exist [id: ${input.sourceId}]`);
    const password = input.password ?? '';
    if (password.length < config.minPasswordLength) {
      throw new BadRequest(`password is too short: it needs at least ${config.minPasswordLength} characters`);
    }
    if (password.length > 255) throw new Invalid('[password]: MaxSize');
    const passwordHash = await hashPassword(password, config.passwordHashCost);
    const lowerName = input.username.toLowerCase();
    const lowerEmail = input.email.toLowerCase();
    try {
      return await withTx(db, async (tx) => {
        const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.lowerName, lowerName));
        if (taken) throw new Invalid(`user already exists [name: ${input.username}]`);
        const [used] = await tx
          .select({ id: emailAddresses.id })
          .from(emailAddresses)
          .where(eq(emailAddresses.lowerEmail, lowerEmail));
        if (used) throw new Invalid(`e-mail already in use [email: ${input.email}]`);
        const created = input.createdAt ?? new Date();
        const [row] = await tx
          .insert(users)
          .values({
            name: input.username,
            lowerName,
            type: 'User',
            email: input.email,
            fullName: input.fullName ?? '',
            loginName: input.loginName ?? '',
            passwordHash,
            mustChangePassword: input.mustChangePassword ?? true,
            isRestricted: input.restricted ?? false,
            visibility: input.visibility || 'public',
            isAdmin: input.isAdmin ?? false,
            isActive: true,
            createdAt: created,
            updatedAt: created,
          })
          .returning();
        await tx
          .insert(emailAddresses)
          .values({ userId: row!.id, email: input.email, lowerEmail, isActivated: true, isPrimary: true });
        return row!;
      });
    } catch (err) {
      // Two creations racing past the checks above: the unique indexes decide, the answer stays 422.
      if (isUniqueViolation(err)) throw new Invalid(`user already exists [name: ${input.username}]`);
      throw err;
    }
  }

  async byName(name: string): Promise<UserRow | undefined> {
    const [row] = await this.deps.db.select().from(users).where(eq(users.lowerName, name.toLowerCase()));
    return row;
  }

  async byId(id: number): Promise<UserRow | undefined> {
    const [row] = await this.deps.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  /** Account names by lower-cased activated e-mail address (commit authors → users), one query. */
  async namesByEmail(emails: string[]): Promise<Map<string, string>> {
    if (!emails.some(Boolean)) return new Map();
    return readAlone(this.deps.db, this.namesByEmailRead(emails));
  }

  /** namesByEmail as a read that may go with another (db/together.ts). */
  namesByEmailRead(emails: string[]): JsonRead<Map<string, string>> {
    const lower = [...new Set(emails.map((e) => e.toLowerCase()).filter(Boolean))];
    const map = (json: unknown) => new Map(json as Array<[string, string]>);
    if (lower.length === 0) return { sql: sql`'[]'::json`, map };
    return {
      sql: sql`select coalesce(json_agg(json_build_array(${emailAddresses.lowerEmail}, ${users.name})), '[]'::json)
        from ${emailAddresses} join ${users} on ${eq(users.id, emailAddresses.userId)}
        where ${and(inArray(emailAddresses.lowerEmail, lower), eq(emailAddresses.isActivated, true))}`,
      map,
    };
  }

  /** Accounts by lower-cased activated e-mail address (a commit's author and committer → users), one query. */
  async byEmails(emails: string[]): Promise<Map<string, UserRow>> {
    const lower = [...new Set(emails.map((e) => e.toLowerCase()).filter(Boolean))];
    if (lower.length === 0) return new Map();
    const rows = await this.deps.db
      .select({ email: emailAddresses.lowerEmail, user: users })
      .from(emailAddresses)
      .innerJoin(users, eq(users.id, emailAddresses.userId))
      .where(and(inArray(emailAddresses.lowerEmail, lower), eq(emailAddresses.isActivated, true)));
    return new Map(rows.map((r) => [r.email, r.user]));
  }

  /** Individual users (not organizations), as the first-start check needs. */
  async countIndividuals(): Promise<number> {
    const [row] = await this.deps.db.select({ n: count() }).from(users).where(ne(users.type, 'Organization'));
    return row?.n ?? 0;
  }

  /**
   * Sign-in with a username or an e-mail address; null when either is wrong or the account cannot sign in.
   * A verified pair is remembered for a minute (keyed by its SHA-256, bound to the stored hash), so
   * clients that send Basic credentials on every request (git over HTTP) do not pay scrypt each time.
   * Only the scrypt work is saved: the account is read again by the login each time, so a password
   * changed, a name or address taken away, an account deactivated or deleted (by any process) counts at
   * once.
   */
  async authenticate(login: string, password: string): Promise<UserRow | null> {
    const key = createHash('sha256').update(login.toLowerCase()).update('\0').update(password).digest('hex');
    const hit = verified.get(key);
    if (hit && hit.expires > Date.now()) {
      const user = await this.account(login);
      if (user && user.id === hit.userId && user.passwordHash === hit.passwordHash && user.isActive && !user.prohibitLogin) return user;
      verified.delete(key);
    }
    const account = await this.account(login);
    // A locked account is refused before its password is checked (429); see loginThrottle.ts.
    if (account) await this.throttle.check(account.id);
    const ok = await verifyPassword(password, account?.passwordHash);
    if (!account) return null;
    if (!ok) {
      await this.throttle.failed(account.id);
      return null;
    }
    await this.throttle.succeeded(account.id);
    if (!account.isActive || account.prohibitLogin) return null;
    if (verified.size >= 1000) verified.delete(verified.keys().next().value!);
    verified.set(key, { userId: account.id, passwordHash: account.passwordHash, expires: Date.now() + 60_000 });
    return account;
  }

  /** The individual account a login (name or activated e-mail) names. */
  private async account(login: string): Promise<UserRow | undefined> {
    const { db } = this.deps;
    const lower = login.toLowerCase();
    let [user] = await db
      .select()
      .from(users)
      .where(and(eq(users.lowerName, lower), ne(users.type, 'Organization')));
    if (!user && lower.includes('@')) {
      [user] = await db
        .select({ user: users })
        .from(emailAddresses)
        .innerJoin(users, eq(users.id, emailAddresses.userId))
        .where(and(eq(emailAddresses.lowerEmail, lower), eq(emailAddresses.isActivated, true)))
        .then((rows) => rows.map((r) => r.user));
    }
    return user;
  }
}
