// Actions secrets and variables of a repository, an organization or a user (the scope: owner 0 and the
// repository's id, or the account's id and repository 0), with Gitea's rules: names of letters, digits
// and `_`, not starting with a digit, `GITEA_` or `GITHUB_`, case-insensitive (stored upper-case); values up
// to 64 KiB; descriptions cut at 4096 characters. A secret's value is encrypted before it is stored
// (secretBox.ts) and never answered, logged or put in an error. What a task may see is gathered here too:
// `secretsForTask` and `varsForTask`.
import { and, asc, count, eq, ne, or, sql } from 'drizzle-orm';
import { actionSecrets, actionVariables, type ActionRunRow, type ActionSecretRow, type ActionVariableRow } from '../../db/schema/index.js';
import { generatedSecretKey } from '../../storage/secretKey.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Invalid, NotFound, isUniqueViolation } from '../errors.js';
import { deriveKey, open, seal, sealedWith, type SecretKey } from './secretBox.js';

export interface SettingsScope {
  ownerId: number;
  repoId: number;
}

/** Gitea's limits (models/secret, models/actions/variable). */
export const maxValueBytes = 65536;
export const maxDescriptionChars = 4096;

const namePattern = /^[A-Z_][A-Z0-9_]*$/i;
const forbiddenPrefix = /^GIT(EA|HUB)_/i;

/** A secret's or variable's name as stored, or 422 for one Gitea refuses. */
export function settingName(name: string, what: 'secret' | 'variable'): string {
  if (!namePattern.test(name) || forbiddenPrefix.test(name)) {
    throw new Invalid(`invalid ${what} name: letters, digits and _ only, not starting with a digit, GITEA_ or GITHUB_`);
  }
  return name.toUpperCase();
}

function checkValue(value: string, what: 'secret' | 'variable'): void {
  if (Buffer.byteLength(value, 'utf8') > maxValueBytes) throw new Invalid(`the ${what}'s value is longer than ${maxValueBytes} bytes`);
}

const cutDescription = (d: string | undefined) => [...(d ?? '')].slice(0, maxDescriptionChars).join('');

const inScope = (t: typeof actionSecrets | typeof actionVariables, s: SettingsScope) => and(eq(t.ownerId, s.ownerId), eq(t.repoId, s.repoId));

export type SecretView = Pick<ActionSecretRow, 'name' | 'description' | 'createdAt'>;

export class ActionSettingsService {
  private keyring?: Promise<SecretKey[]>;

  constructor(private readonly deps: ServiceDeps) {}

  /** The current key first, then the one before a rotation. */
  keys(): Promise<SecretKey[]> {
    this.keyring ??= (async () => {
      const { config } = this.deps;
      const current = deriveKey(config.secretKey ?? (await generatedSecretKey(config.dataDir)));
      return config.secretKeyPrevious ? [current, deriveKey(config.secretKeyPrevious)] : [current];
    })().catch((err) => {
      this.keyring = undefined;
      throw err;
    });
    return this.keyring;
  }

  // --- secrets -----------------------------------------------------------------------------------

  async listSecrets(scope: SettingsScope, page: { limit: number; offset: number }): Promise<{ rows: SecretView[]; total: number }> {
    const where = inScope(actionSecrets, scope);
    const [rows, [total]] = await Promise.all([
      this.deps.db
        .select({ name: actionSecrets.name, description: actionSecrets.description, createdAt: actionSecrets.createdAt })
        .from(actionSecrets).where(where).orderBy(asc(actionSecrets.name)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(actionSecrets).where(where),
    ]);
    return { rows, total: Number(total?.n ?? 0) };
  }

  /** Creates or replaces a secret: `created` tells which (Gitea's 201 or 204). */
  async putSecret(scope: SettingsScope, rawName: string, value: string, description: string | undefined): Promise<{ created: boolean }> {
    const name = settingName(rawName, 'secret');
    checkValue(value, 'secret');
    const [key] = await this.keys();
    const data = seal(key!, { ...scope, name }, value);
    const desc = cutDescription(description);
    const [row] = await this.deps.db
      .insert(actionSecrets)
      .values({ ...scope, name, data, description: desc })
      .onConflictDoUpdate({ target: [actionSecrets.ownerId, actionSecrets.repoId, actionSecrets.name], set: { data, description: desc, updatedAt: sql`now()` } })
      .returning({ inserted: sql<boolean>`(xmax = 0)` });
    return { created: row?.inserted === true || (row?.inserted as unknown) === 't' };
  }

  async deleteSecret(scope: SettingsScope, rawName: string): Promise<void> {
    const gone = await this.deps.db
      .delete(actionSecrets)
      .where(and(inScope(actionSecrets, scope), eq(actionSecrets.name, rawName.toUpperCase())))
      .returning({ id: actionSecrets.id });
    if (gone.length === 0) throw new NotFound('secret not found');
  }

  /**
   * Re-encrypts, under the current key, every secret stored under another one that a configured key still
   * opens (after a rotation: SECRET_KEY new, SECRET_KEY_PREVIOUS old). Each row is rewritten only if it is
   * still what was read, so processes doing this at once write each row once. Answers how many moved and
   * how many no key opens (those are left as they are, and give no task a value).
   */
  async reencryptSecrets(): Promise<{ moved: number; unreadable: number }> {
    const keys = await this.keys();
    const current = keys[0]!;
    const stale = await this.deps.db.select().from(actionSecrets).where(sql`${actionSecrets.data} not like ${`v1.${current.id}.%`}`);
    let moved = 0;
    let unreadable = 0;
    for (const row of stale) {
      const value = open(keys, row, row.data);
      if (value === undefined) {
        unreadable++;
        this.deps.log.warn({ secret: row.id, name: row.name, key: sealedWith(row.data) ?? 'unknown' }, 'an Actions secret is under a key that is not configured (SECRET_KEY, SECRET_KEY_PREVIOUS)');
        continue;
      }
      const done = await this.deps.db
        .update(actionSecrets)
        .set({ data: seal(current, row, value) })
        .where(and(eq(actionSecrets.id, row.id), eq(actionSecrets.data, row.data)))
        .returning({ id: actionSecrets.id });
      moved += done.length;
    }
    return { moved, unreadable };
  }

  // --- variables ---------------------------------------------------------------------------------

  async listVariables(scope: SettingsScope, page: { limit: number; offset: number }): Promise<{ rows: ActionVariableRow[]; total: number }> {
    const where = inScope(actionVariables, scope);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(actionVariables).where(where).orderBy(asc(actionVariables.name)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(actionVariables).where(where),
    ]);
    return { rows, total: Number(total?.n ?? 0) };
  }

  async variable(scope: SettingsScope, rawName: string): Promise<ActionVariableRow> {
    const [row] = await this.deps.db.select().from(actionVariables).where(and(inScope(actionVariables, scope), eq(actionVariables.name, rawName.toUpperCase())));
    if (!row) throw new NotFound('variable not found');
    return row;
  }

  async createVariable(scope: SettingsScope, rawName: string, value: string, description: string | undefined): Promise<ActionVariableRow> {
    const name = settingName(rawName, 'variable');
    const data = value.replace(/\r\n?/g, '\n');
    checkValue(data, 'variable');
    const [row] = await this.deps.db
      .insert(actionVariables)
      .values({ ...scope, name, data, description: cutDescription(description) })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new Conflict('variable name already exists');
    return row;
  }

  /** Changes a variable's value and description, and its name when `newName` is given. */
  async updateVariable(scope: SettingsScope, rawName: string, change: { name?: string; value: string; description?: string }): Promise<ActionVariableRow> {
    const current = await this.variable(scope, rawName);
    const name = settingName(change.name || rawName, 'variable');
    const data = change.value.replace(/\r\n?/g, '\n');
    checkValue(data, 'variable');
    try {
      const [row] = await this.deps.db
        .update(actionVariables)
        .set({ name, data, description: cutDescription(change.description), updatedAt: new Date() })
        .where(eq(actionVariables.id, current.id))
        .returning();
      if (!row) throw new NotFound('variable not found');
      return row;
    } catch (err) {
      if (isUniqueViolation(err)) throw new Conflict('variable name already exists');
      throw err;
    }
  }

  async deleteVariable(scope: SettingsScope, rawName: string): Promise<void> {
    const gone = await this.deps.db
      .delete(actionVariables)
      .where(and(inScope(actionVariables, scope), eq(actionVariables.name, rawName.toUpperCase())))
      .returning({ id: actionVariables.id });
    if (gone.length === 0) throw new NotFound('variable not found');
  }

  // --- what a task sees --------------------------------------------------------------------------

  /**
   * The secrets a task of `run` receives: `GITEA_TOKEN` and `GITHUB_TOKEN` (its own token), then the
   * repository owner's (organization or user) secrets, overridden by the repository's of the same name,
   * as Gitea orders them. A run of a pull request from a fork gets the two tokens only. A value no
   * configured key opens is left out (and logged by name, never by value).
   */
  async secretsForTask(run: Pick<ActionRunRow, 'repoId' | 'ownerId' | 'isForkPullRequest'>, taskToken: string): Promise<Record<string, string>> {
    const out: Record<string, string> = { GITEA_TOKEN: taskToken, GITHUB_TOKEN: taskToken };
    if (run.isForkPullRequest) return out;
    const rows = await this.deps.db.select().from(actionSecrets).where(ownerThenRepo(actionSecrets, run));
    const keys = rows.length ? await this.keys() : [];
    // Owner level first, the repository's after: a repository's secret wins over its owner's of the same name.
    for (const row of rows.sort((a, b) => Number(a.repoId !== 0) - Number(b.repoId !== 0))) {
      const value = open(keys, row, row.data);
      if (value === undefined) {
        this.deps.log.warn({ secret: row.id, name: row.name }, 'an Actions secret no configured key opens was left out of a task');
        continue;
      }
      out[row.name] = value;
    }
    return out;
  }

  /** The variables a task of `run` receives: the owner's, overridden by the repository's (forks' runs too, as in Gitea). */
  async varsForTask(run: Pick<ActionRunRow, 'repoId' | 'ownerId'>): Promise<Record<string, string>> {
    const rows = await this.deps.db.select().from(actionVariables).where(ownerThenRepo(actionVariables, run));
    const out: Record<string, string> = {};
    for (const row of rows.sort((a, b) => Number(a.repoId !== 0) - Number(b.repoId !== 0))) out[row.name] = row.data;
    return out;
  }
}

function ownerThenRepo(t: typeof actionSecrets | typeof actionVariables, run: { repoId: number; ownerId: number }) {
  return or(and(eq(t.ownerId, run.ownerId), eq(t.repoId, 0), ne(t.ownerId, 0)), and(eq(t.ownerId, 0), eq(t.repoId, run.repoId)));
}

