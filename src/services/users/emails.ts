// E-mail addresses: a user's primary one (mirrored in users.email) and the others they add. An address
// belongs to one account only (the unique index on lower_email decides, even between racing adds).
import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL } from 'drizzle-orm';
import { emailAddresses, users, type UserRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import type { ServiceDeps } from '../context.js';
import { Invalid, NotFound, isUniqueViolation } from '../errors.js';
import { containsPattern } from '../like.js';
import { checkEmail } from '../names.js';

export interface EmailRecord {
  email: string;
  verified: boolean;
  primary: boolean;
  userId: number;
  username: string;
}

const record = {
  email: emailAddresses.email,
  verified: emailAddresses.isActivated,
  primary: emailAddresses.isPrimary,
  userId: emailAddresses.userId,
  username: users.name,
};

export class EmailService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The user's addresses: the primary first, then in the order they were added. */
  async ofUser(user: UserRow): Promise<EmailRecord[]> {
    return this.deps.db
      .select(record)
      .from(emailAddresses)
      .innerJoin(users, eq(users.id, emailAddresses.userId))
      .where(eq(emailAddresses.userId, user.id))
      .orderBy(desc(emailAddresses.isPrimary), asc(emailAddresses.id));
  }

  /** Adds addresses (activated: anvil sends no confirmation mail); all or none. */
  async add(user: UserRow, emails: string[]): Promise<EmailRecord[]> {
    if (emails.length === 0) throw new Invalid('Email list empty');
    const wanted = [...new Map(emails.map((e) => [e.trim().toLowerCase(), e.trim()])).entries()];
    for (const [, e] of wanted) {
      try {
        checkEmail(e);
      } catch {
        throw new Invalid(`Email address "${e}" invalid`);
      }
    }
    {
      try {
        await withTx(this.deps.db, async (tx) => {
          const used = await tx.select({ email: emailAddresses.email }).from(emailAddresses).where(inArray(emailAddresses.lowerEmail, wanted.map(([l]) => l)));
          if (used.length) throw new Invalid(`Email address has been used: ${used[0]!.email}`);
          await tx.insert(emailAddresses).values(wanted.map(([lowerEmail, email]) => ({ userId: user.id, email, lowerEmail, isActivated: true, isPrimary: false })));
        });
      } catch (err) {
        // Two adds of one address racing past the check: the unique index decides, the loser gets 422.
        if (isUniqueViolation(err)) throw new Invalid(`Email address has been used: ${wanted.map(([, e]) => e).join(', ')}`);
        throw err;
      }
    }
    return this.ofUser(user);
  }

  /** Deletes addresses of the user; one they do not have is NotFound, the primary is Invalid; all or none. */
  async delete(user: UserRow, emails: string[]): Promise<void> {
    const lower = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
    if (lower.length === 0) return;
    await withTx(this.deps.db, async (tx) => {
      const mine = await tx.select().from(emailAddresses).where(and(eq(emailAddresses.userId, user.id), inArray(emailAddresses.lowerEmail, lower)));
      const missing = lower.filter((l) => !mine.some((m) => m.lowerEmail === l));
      if (missing.length) throw new NotFound(`email address does not exist [email: ${missing[0]}]`);
      const primary = mine.find((m) => m.isPrimary);
      if (primary) throw new Invalid(`the primary email address cannot be deleted [email: ${primary.email}]`);
      await tx.delete(emailAddresses).where(inArray(emailAddresses.id, mine.map((m) => m.id)));
    });
  }

  /**
   * Every address of individual users (organizations excluded), by lower-cased address, the primary
   * first, then id; `q` (trimmed) matches anywhere in the address, the user's name or full name.
   */
  async search(q: string | undefined, page: { limit: number; offset: number }): Promise<{ rows: EmailRecord[]; total: number }> {
    const conds: Array<SQL | undefined> = [ne(users.type, 'Organization')];
    const keyword = q?.trim().toLowerCase();
    if (keyword) {
      const pattern = containsPattern(keyword);
      conds.push(or(ilike(emailAddresses.lowerEmail, pattern), ilike(users.lowerName, pattern), ilike(users.fullName, pattern)));
    }
    const where = and(...conds);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select(record).from(emailAddresses).innerJoin(users, eq(users.id, emailAddresses.userId)).where(where)
        .orderBy(asc(emailAddresses.lowerEmail), desc(emailAddresses.isPrimary), asc(emailAddresses.id))
        .limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(emailAddresses).innerJoin(users, eq(users.id, emailAddresses.userId)).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }
}

