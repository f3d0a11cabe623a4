// Users' SSH keys and repositories' deploy keys. A key (by fingerprint) is either one user's key or the
// deploy key of some repositories, never both; a deploy key left by its last repository is free again.
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import { deployKeys, publicKeys, users, type DeployKeyRow, type PublicKeyRow, type UserRow } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { withTx } from '../../db/tx.js';
import { isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, NotFound, RepoArchived, isUniqueViolation } from '../errors.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { parsePublicKey } from './sshKeys.js';

export interface DeployKeyEntry {
  deploy: DeployKeyRow;
  key: PublicKeyRow;
}

const title = (t: string) => {
  const s = t.trim();
  if (!s) throw new Invalid('[Title]: Required');
  return s;
};

export function requireRepoAdmin(loaded: LoadedRepo): void {
  if (!isRepoAdmin(loaded.perm)) throw new Forbidden('user should be an owner or a collaborator with admin write of a repository');
}

export class KeyService {
  constructor(private readonly deps: ServiceDeps) {}

  // ------------------------------------------------------------------ signing in with a key (SSH)

  /** The key with this fingerprint, and its user for a user key. */
  async byFingerprint(fingerprint: string): Promise<{ key: PublicKeyRow; owner: UserRow | null } | undefined> {
    const [row] = await this.deps.db.select({ key: publicKeys, owner: users }).from(publicKeys).leftJoin(users, eq(users.id, publicKeys.ownerId)).where(eq(publicKeys.fingerprint, fingerprint));
    return row;
  }

  /** The deploy key a public key is for one repository, if it is one there. */
  async deployKeyOf(keyId: number, repoId: number): Promise<DeployKeyRow | undefined> {
    const [row] = await this.deps.db.select().from(deployKeys).where(and(eq(deployKeys.keyId, keyId), eq(deployKeys.repoId, repoId)));
    return row;
  }

  // ------------------------------------------------------------------ user keys

  async listUserKeys(user: UserRow, fingerprint: string | undefined, page: { limit: number; offset: number }) {
    const where = and(eq(publicKeys.ownerId, user.id), eq(publicKeys.type, 'user'), fingerprint ? eq(publicKeys.fingerprint, fingerprint.trim()) : undefined);
    const [rows, [total]] = await Promise.all([
      this.deps.db.select().from(publicKeys).where(where).orderBy(asc(publicKeys.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(publicKeys).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async addUserKey(user: UserRow, input: { title: string; key: string }): Promise<PublicKeyRow> {
    const name = title(input.title);
    const parsed = await parsePublicKey(input.key);
    return this.claim(parsed.fingerprint, async (tx) => {
      const [row] = await tx.insert(publicKeys).values({ ownerId: user.id, type: 'user', name, fingerprint: parsed.fingerprint, content: parsed.content }).returning();
      return row!;
    });
  }

  async userKey(user: UserRow, id: number): Promise<PublicKeyRow> {
    const [row] = await this.deps.db.select().from(publicKeys).where(and(eq(publicKeys.id, id), eq(publicKeys.ownerId, user.id), eq(publicKeys.type, 'user')));
    if (!row) throw new NotFound();
    return row;
  }

  async deleteUserKey(user: UserRow, id: number): Promise<void> {
    const gone = await this.deps.db
      .delete(publicKeys)
      .where(and(eq(publicKeys.id, id), eq(publicKeys.ownerId, user.id), eq(publicKeys.type, 'user')))
      .returning({ id: publicKeys.id });
    if (gone.length === 0) throw new NotFound();
  }

  // ------------------------------------------------------------------ deploy keys

  async listDeployKeys(loaded: LoadedRepo, f: { keyId?: number; fingerprint?: string }, page: { limit: number; offset: number }) {
    requireRepoAdmin(loaded);
    const where = and(
      eq(deployKeys.repoId, loaded.repo.id),
      f.keyId ? eq(deployKeys.keyId, f.keyId) : undefined,
      f.fingerprint?.trim() ? eq(publicKeys.fingerprint, f.fingerprint.trim()) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      this.deployQuery(where).orderBy(asc(deployKeys.id)).limit(page.limit).offset(page.offset),
      this.deps.db.select({ n: count() }).from(deployKeys).innerJoin(publicKeys, eq(publicKeys.id, deployKeys.keyId)).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async addDeployKey(loaded: LoadedRepo, input: { title: string; key: string; readOnly?: boolean }): Promise<DeployKeyEntry> {
    requireRepoAdmin(loaded);
    if (loaded.repo.isArchived) throw new RepoArchived();
    const name = title(input.title);
    const parsed = await parsePublicKey(input.key);
    const repoId = loaded.repo.id;
    try {
      return await withTx(this.deps.db, async (tx) => {
        const [taken] = await tx.select({ id: deployKeys.id }).from(deployKeys).where(and(eq(deployKeys.repoId, repoId), eq(deployKeys.lowerName, name.toLowerCase())));
        if (taken) throw new Invalid(`A deploy key with the same name already exists [name: ${name}]`);
        const [existing] = await tx.select().from(publicKeys).where(eq(publicKeys.fingerprint, parsed.fingerprint)).for('update');
        let key = existing;
        if (existing?.type === 'user') throw new Invalid('Key content has been used as non-deploy key');
        if (existing) {
          const [here] = await tx.select({ id: deployKeys.id }).from(deployKeys).where(and(eq(deployKeys.repoId, repoId), eq(deployKeys.keyId, existing.id)));
          if (here) throw new Invalid('A key with the same content already exists in this repository');
        } else {
          [key] = await tx.insert(publicKeys).values({ type: 'deploy', name, fingerprint: parsed.fingerprint, content: parsed.content }).returning();
        }
        const [deploy] = await tx
          .insert(deployKeys)
          .values({ keyId: key!.id, repoId, name, lowerName: name.toLowerCase(), readOnly: input.readOnly ?? false })
          .returning();
        return { deploy: deploy!, key: key! };
      });
    } catch (err) {
      // Two requests adding the same key or name at once: the second sees the first's row.
      if (isUniqueViolation(err)) throw new Invalid('the key or its name was added at the same moment by another request');
      throw err;
    }
  }

  async deployKey(loaded: LoadedRepo, id: number): Promise<DeployKeyEntry> {
    requireRepoAdmin(loaded);
    const [row] = await this.deployQuery(and(eq(deployKeys.id, id), eq(deployKeys.repoId, loaded.repo.id)));
    if (!row) throw new NotFound();
    return row;
  }

  async deleteDeployKey(loaded: LoadedRepo, id: number): Promise<void> {
    requireRepoAdmin(loaded);
    await withTx(this.deps.db, async (tx) => {
      const [gone] = await tx.delete(deployKeys).where(and(eq(deployKeys.id, id), eq(deployKeys.repoId, loaded.repo.id))).returning();
      if (!gone) throw new NotFound();
      await dropUnusedDeployKey(tx, gone.keyId);
    });
  }

  private deployQuery(where: SQL | undefined) {
    return this.deps.db.select({ deploy: deployKeys, key: publicKeys }).from(deployKeys).innerJoin(publicKeys, eq(publicKeys.id, deployKeys.keyId)).where(where);
  }

  /**
   * Runs `insert` once the fingerprint is free: a user key anywhere, or a deploy key some repository
   * uses, is 422; a deploy key nobody uses any more is removed first.
   */
  private async claim<T>(fingerprint: string, insert: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await withTx(this.deps.db, async (tx) => {
        const [existing] = await tx.select().from(publicKeys).where(eq(publicKeys.fingerprint, fingerprint)).for('update');
        if (existing?.type === 'user') throw new Invalid('A key with the same content already exists');
        if (existing && !(await dropUnusedDeployKey(tx, existing.id))) throw new Invalid('Key content has been used as deploy key');
        return insert(tx);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new Invalid('A key with the same content already exists');
      throw err;
    }
  }
}

/** Deletes a deploy-type public key no repository uses; whether it did. */
async function dropUnusedDeployKey(tx: Db, keyId: number): Promise<boolean> {
  const gone = await tx
    .delete(publicKeys)
    .where(and(eq(publicKeys.id, keyId), eq(publicKeys.type, 'deploy'), sql`not exists (select 1 from ${deployKeys} d where d.key_id = ${keyId})`))
    .returning({ id: publicKeys.id });
  return gone.length > 0;
}
