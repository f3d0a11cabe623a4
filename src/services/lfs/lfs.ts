// Git LFS, as Gitea serves it: the batch API (basic transfer: upload, download, verify), objects kept once
// in the `lfs` store keyed by oid and recorded per repository (lfs_meta_objects), locks of paths, and the
// short-lived tokens that `git-lfs-authenticate` hands out over SSH. Who may do what is git's rule:
// reading the code to download, pushing to it to upload (GitTransportService decides both).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { lfsLocks, lfsMetaObjects, repositories, users, type LfsLockRow, type UserRow } from '../../db/schema/index.js';
import { canRead, isRepoAdmin } from '../../permissions/repo.js';
import { storeFor, type BlobStore } from '../../storage/index.js';
import { isOid, lfsKey } from '../../storage/lfsObjects.js';
import { parsePointer } from '../../git/lfsPointer.js';
import type { ServiceDeps } from '../context.js';
import { Conflict, Forbidden, Invalid, NotFound, PayloadTooLarge, Unauthorized, isUniqueViolation } from '../errors.js';
import type { ContentService } from '../git/contents.js';
import type { GitTransportService, KeyHolder, TransportCaller, TransportTarget } from '../git/gitTransport.js';
import type { LoadedRepo, RepoService } from '../repos/repos.js';
import type { UserService } from '../users/users.js';

const isSize = (size: unknown): size is number => typeof size === 'number' && Number.isSafeInteger(size) && size >= 0;

export { isOid, lfsKey, parsePointer };

export type LfsOperation = 'upload' | 'download';

/** What a request carries: the API's credentials, or a token git-lfs-authenticate handed out. */
export type LfsCaller = { kind: 'http'; caller: TransportCaller } | { kind: 'token'; token: string };

/** What an `lfs1.` token says: this repository, this user or deploy key, this operation, until then. */
interface TokenClaims {
  r: number;
  u?: number;
  k?: number;
  op: LfsOperation;
  exp: number;
}

export interface LfsAccess {
  loaded: TransportTarget;
  /** The signed-in user (a deploy key acts as the repository's owner); null for anonymous. */
  actor: UserRow | null;
}

export interface BatchObject {
  oid: unknown;
  size: unknown;
}

export type BatchResult =
  | { oid: string; size: number; exists: boolean; error?: undefined }
  | { oid: string; size: number; error: { code: number; message: string } };

/** A lock's path as stored: slashes, no leading one, no `.`/`..`/empty segments. */
function cleanLockPath(path: unknown): string {
  if (typeof path !== 'string') throw new Invalid('path is required');
  const parts = path.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  if (!parts.length || parts.includes('..') || /[\0]/.test(path)) throw new Invalid('path is invalid');
  return parts.join('/');
}

export interface LockView {
  lock: LfsLockRow;
  ownerName: string;
}

export class LfsService {
  readonly store: BlobStore;
  private secret?: Buffer;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly transport: GitTransportService,
    private readonly users: UserService,
    private readonly repos: RepoService,
    private readonly contents: ContentService,
  ) {
    this.store = storeFor(deps.config, 'lfs');
  }

  private ensureEnabled(): void {
    if (!this.deps.config.lfs.enabled) throw new NotFound();
  }

  // ------------------------------------------------------------------ tokens

  /** LFS_JWT_SECRET, else one made once into $DATA_DIR (every process on the folder ends up with the same). */
  private key(): Buffer {
    if (this.secret) return this.secret;
    const configured = this.deps.config.lfs.jwtSecret;
    if (configured) return (this.secret = Buffer.from(configured, 'utf8'));
    const dir = join(this.deps.config.dataDir, 'lfs_secret');
    const file = join(dir, 'jwt_secret');
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      const candidate = join(dir, `.candidate.${process.pid}.${randomBytes(6).toString('hex')}`);
      writeFileSync(candidate, randomBytes(32).toString('base64url'), { mode: 0o600 });
      try {
        linkSync(candidate, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      } finally {
        unlinkSync(candidate);
      }
    }
    return (this.secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8'));
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key()).update(payload).digest('base64url');
  }

  /** A token for `holder` on `repoId` (git-lfs-authenticate): `lfs1.<claims>.<hmac>`. */
  issueToken(repoId: number, holder: { userId?: number; deployKeyId?: number }, op: LfsOperation): { token: string; expiresAt: Date } {
    const exp = Date.now() + this.deps.config.lfs.authExpiryMs;
    const claims: TokenClaims = { r: repoId, op, exp, ...(holder.userId ? { u: holder.userId } : {}), ...(holder.deployKeyId ? { k: holder.deployKeyId } : {}) };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { token: `lfs1.${payload}.${this.sign(payload)}`, expiresAt: new Date(exp) };
  }

  /**
   * `git-lfs-authenticate <repo> <operation>` over SSH: what the key may do on the repository is checked
   * now (as for git over SSH), then a token for the LFS server over HTTP is handed out.
   */
  async authenticateSsh(ownerName: string, name: string, holder: KeyHolder, op: LfsOperation): Promise<{ href: string; header: Record<string, string>; expires_at: string }> {
    this.ensureEnabled();
    const service = op === 'upload' ? 'git-receive-pack' : 'git-upload-pack';
    const { loaded } = await this.transport.openForKey(ownerName, name, holder, service);
    if (loaded.wiki) throw new NotFound('Repository not found');
    const { token, expiresAt } = this.issueToken(loaded.repo.id, holder.kind === 'user' ? { userId: holder.user.id } : { deployKeyId: holder.keyId }, op);
    return {
      href: `${this.deps.config.rootUrl}${encodeURIComponent(loaded.owner.name)}/${encodeURIComponent(loaded.repo.name)}.git/info/lfs`,
      header: { Authorization: `Bearer ${token}` },
      expires_at: expiresAt.toISOString(),
    };
  }

  private readToken(token: string): TokenClaims {
    const [tag, payload = '', mac = ''] = token.split('.');
    const want = Buffer.from(this.sign(payload));
    const got = Buffer.from(mac);
    if (tag !== 'lfs1' || got.length !== want.length || !timingSafeEqual(got, want)) throw new Unauthorized('invalid LFS token');
    let claims: TokenClaims;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
    } catch {
      throw new Unauthorized('invalid LFS token');
    }
    if (typeof claims.exp !== 'number' || claims.exp < Date.now()) throw new Unauthorized('LFS token expired');
    return claims;
  }

  // ------------------------------------------------------------------ access

  /**
   * The repository, if the caller may `op` on its LFS objects: download needs git's fetch, upload git's
   * push. A token is checked again against what its holder may do now (a revoked key or a lost
   * permission holds at once), and reaches only the repository it was made for.
   */
  async open(ownerName: string, name: string, who: LfsCaller, op: LfsOperation): Promise<LfsAccess> {
    this.ensureEnabled();
    const service = op === 'upload' ? 'git-receive-pack' : 'git-upload-pack';
    if (who.kind === 'http') {
      const loaded = await this.transport.open(ownerName, name, who.caller, service);
      if (loaded.wiki) throw new NotFound('Repository not found');
      return { loaded, actor: who.caller.actor };
    }
    const claims = this.readToken(who.token);
    if (op === 'upload' && claims.op !== 'upload') throw new Forbidden('this LFS token may only download');
    let access: LfsAccess;
    if (claims.k) {
      const r = await this.transport.openForKey(ownerName, name, { kind: 'deploy', keyId: claims.k }, service);
      access = { loaded: r.loaded, actor: r.pusher };
    } else {
      const user = claims.u ? await this.users.byId(claims.u) : undefined;
      if (!user || !user.isActive || user.prohibitLogin) throw new Unauthorized('invalid LFS token');
      access = { loaded: await this.transport.open(ownerName, name, { actor: user }, service), actor: user };
    }
    if (access.loaded.repo.id !== claims.r || access.loaded.wiki) throw new NotFound('Repository not found');
    return access;
  }

  // ------------------------------------------------------------------ objects

  /** The repositories whose objects this one may use: itself and the repositories it was forked from. */
  private async lineage(loaded: LoadedRepo): Promise<number[]> {
    const ids = [loaded.repo.id];
    let parent = loaded.repo.forkId;
    while (parent && ids.length < 10 && !ids.includes(parent)) {
      ids.push(parent);
      const [row] = await this.deps.db.select({ forkId: repositories.forkId }).from(repositories).where(eq(repositories.id, parent));
      parent = row?.forkId ?? null;
    }
    return ids;
  }

  /** This repository's record of `oid` (or, for a fork, its parent's). */
  async meta(loaded: LoadedRepo, oid: string): Promise<{ oid: string; size: number } | undefined> {
    if (!isOid(oid)) return undefined;
    const ids = await this.lineage(loaded);
    const [row] = await this.deps.db.select({ oid: lfsMetaObjects.oid, size: lfsMetaObjects.size }).from(lfsMetaObjects)
      .where(and(eq(lfsMetaObjects.oid, oid), inArray(lfsMetaObjects.repoId, ids))).limit(1);
    return row;
  }

  /**
   * The batch API's answer for each object: for a download, whether it is there; for an upload, whether
   * it still has to be sent (an object the store already has, of the right size, is recorded for this
   * repository at once, as Gitea does, when the caller may read a repository that holds it).
   */
  async batch(access: LfsAccess, op: LfsOperation, objects: BatchObject[]): Promise<BatchResult[]> {
    const { loaded } = access;
    const max = this.deps.config.lfs.maxFileSize;
    const out: BatchResult[] = [];
    for (const o of objects) {
      const oid = typeof o.oid === 'string' ? o.oid : '';
      const size = typeof o.size === 'number' ? o.size : -1;
      if (!isOid(o.oid) || !isSize(o.size)) {
        out.push({ oid, size, error: { code: 422, message: 'Oid or size are invalid' } });
        continue;
      }
      const known = await this.meta(loaded, oid);
      if (op === 'download') {
        if (!known) out.push({ oid, size, error: { code: 404, message: `Object ${oid} not found` } });
        else out.push({ oid, size: known.size, exists: true });
        continue;
      }
      if (max > 0 && size > max) {
        out.push({ oid, size, error: { code: 413, message: `Size must be less than or equal to ${max}` } });
        continue;
      }
      if (known) {
        if (known.size !== size) out.push({ oid, size, error: { code: 422, message: `Object ${oid} is not ${size} bytes` } });
        else {
          await this.record(loaded.repo.id, oid, size);
          out.push({ oid, size, exists: true });
        }
        continue;
      }
      const stored = await this.store.stat(lfsKey(oid));
      if (stored && stored.size === size && (await this.readableElsewhere(oid, access.actor))) {
        await this.record(loaded.repo.id, oid, size);
        out.push({ oid, size, exists: true });
      } else out.push({ oid, size, exists: false });
    }
    return out;
  }

  /** Whether `actor` may read some repository that holds `oid` (so that knowing an oid is not enough). */
  private async readableElsewhere(oid: string, actor: UserRow | null): Promise<boolean> {
    if (!actor) return false;
    const rows = await this.deps.db.select({ repoId: lfsMetaObjects.repoId }).from(lfsMetaObjects).where(eq(lfsMetaObjects.oid, oid)).limit(20);
    if (!rows.length) return false;
    if (actor.isAdmin) return true;
    const names = await this.deps.db.select({ owner: users.name, name: repositories.name }).from(repositories)
      .innerJoin(users, eq(users.id, repositories.ownerId)).where(inArray(repositories.id, rows.map((r) => r.repoId)));
    for (const n of names) {
      const site = await this.repos.load(n.owner, n.name, actor).catch(() => undefined);
      if (site && canRead(site.perm, 'repo.code')) return true;
    }
    return false;
  }

  private async record(repoId: number, oid: string, size: number): Promise<void> {
    await this.deps.db.insert(lfsMetaObjects).values({ repoId, oid, size }).onConflictDoNothing();
  }

  /**
   * `PUT …/objects/{oid}/{size}`: the object's bytes, streamed into the store while hashed and counted;
   * anything but exactly `size` bytes hashing to `oid` is refused (422) and nothing is kept.
   */
  async upload(access: LfsAccess, oid: string, size: number, body: Readable): Promise<void> {
    if (!isOid(oid) || !isSize(size)) throw new Invalid('Oid or size are invalid');
    const max = this.deps.config.lfs.maxFileSize;
    if (max > 0 && size > max) throw new PayloadTooLarge(`Size must be less than or equal to ${max}`);
    const key = lfsKey(oid);
    const stored = await this.store.stat(key);
    if (stored && stored.size === size) {
      // The store has it (another repository sent it): the bytes are not needed again, but still checked.
      body.resume();
    } else {
      const hash = createHash('sha256');
      let seen = 0;
      await this.store.put(key, body, {
        chunk: (c) => {
          seen += c.length;
          if (seen > size) throw new Invalid(`Object ${oid} is larger than ${size} bytes`);
          hash.update(c);
        },
        end: () => {
          if (seen !== size) throw new Invalid(`Object ${oid} is ${seen} bytes, not ${size}`);
          if (hash.digest('hex') !== oid) throw new Invalid(`Object content does not match its oid ${oid}`);
        },
      });
    }
    await this.record(access.loaded.repo.id, oid, size);
  }

  /** `POST …/verify`: the object is recorded for this repository with this size. */
  async verify(access: LfsAccess, oid: unknown, size: unknown): Promise<void> {
    if (!isOid(oid) || !isSize(size)) throw new Invalid('Oid or size are invalid');
    const known = await this.meta(access.loaded, oid);
    if (!known) throw new NotFound(`Object ${oid} not found`);
    if (known.size !== size) throw new Invalid(`Object ${oid} is ${known.size} bytes, not ${size}`);
    const stored = await this.store.stat(lfsKey(oid));
    if (!stored || stored.size !== size) throw new NotFound(`Object ${oid} not found`);
  }

  /**
   * An object of this repository (or its fork parents), streamed (or a presigned URL with SERVE_DIRECT);
   * `range` as HTTP's.
   */
  async download(access: LfsAccess, oid: string, range?: { start: number; end?: number }): Promise<{ size: number; stream?: Readable; redirect?: string }> {
    const known = await this.meta(access.loaded, oid);
    if (!known) throw new NotFound();
    return this.objectOf(oid, known.size, range);
  }

  private async objectOf(oid: string, size: number, range?: { start: number; end?: number }, filename = oid): Promise<{ size: number; stream?: Readable; redirect?: string }> {
    const key = lfsKey(oid);
    const redirect = await this.store.directUrl(key, { filename });
    if (redirect) return { size, redirect };
    const stream = await this.store.get(key, range);
    if (!stream) {
      this.deps.log.warn({ oid }, 'LFS object is recorded but missing from the store');
      throw new NotFound();
    }
    return { size, stream };
  }

  /**
   * For a blob of `loaded` that is an LFS pointer (content and raw answers, `media`): the object it points
   * at, if this repository holds it; undefined otherwise (the blob is then served as it is).
   */
  async resolvePointer(loaded: LoadedRepo, blob: Buffer): Promise<{ oid: string; size: number; open: (range?: { start: number; end?: number }, filename?: string) => Promise<{ size: number; stream?: Readable; redirect?: string }> } | undefined> {
    const pointer = parsePointer(blob);
    if (!pointer) return undefined;
    const known = await this.meta(loaded, pointer.oid);
    if (!known || known.size !== pointer.size) return undefined;
    return { ...pointer, open: (range, filename) => this.objectOf(pointer.oid, pointer.size, range, filename) };
  }

  /**
   * `GET …/media/{filepath}` (Gitea's GetRawFileOrLFS): the file at `ref` as `raw` reads it; for an LFS
   * pointer of an object this repository holds, that object instead (streamed from the store, or a
   * presigned URL with SERVE_DIRECT). A pointer to an object it does not hold is served as it is. `etag`
   * is Gitea's: the object's oid, else the blob's id. `open` reads the bytes, or an inclusive range of
   * them (an object's range is read from the store, never the whole object).
   */
  async media(loaded: LoadedRepo, path: string, ref?: string): Promise<{
    name: string; size: number; etag: string;
    open: (range?: { start: number; end: number }) => Promise<{ data?: Buffer; stream?: Readable; redirect?: string }>;
  }> {
    const file = await this.contents.raw(loaded, path, ref);
    const object = await this.resolvePointer(loaded, file.data);
    if (!object) {
      return { name: file.name, size: file.data.length, etag: `"${file.id}"`, open: async (range) => ({ data: range ? file.data.subarray(range.start, range.end + 1) : file.data }) };
    }
    return { name: file.name, size: object.size, etag: `"${object.oid}"`, open: (range) => object.open(range, file.name) };
  }

  /** The bytes of LFS objects recorded for `repoId` (repository size counts them). */
  async sizeOf(repoId: number): Promise<number> {
    const [row] = await this.deps.db.select({ n: sql<string | number>`coalesce(sum(${lfsMetaObjects.size}), 0)` }).from(lfsMetaObjects).where(eq(lfsMetaObjects.repoId, repoId));
    return Number(row?.n ?? 0);
  }

  /**
   * gc_lfs: objects in the store that no repository records any more (their repositories were deleted),
   * older than `graceMs` (an upload between its bytes and its record is younger). Answers how many went.
   */
  async collectGarbage(graceMs = 3600_000, now = new Date()): Promise<number> {
    let removed = 0;
    let batch: { key: string; oid: string }[] = [];
    const sweep = async () => {
      const oids = batch.map((b) => b.oid);
      const known = new Set((await this.deps.db.select({ oid: lfsMetaObjects.oid }).from(lfsMetaObjects).where(inArray(lfsMetaObjects.oid, oids))).map((r) => r.oid));
      for (const b of batch) {
        if (known.has(b.oid)) continue;
        await this.store.remove(b.key);
        removed++;
      }
      batch = [];
    };
    for await (const { key, modified } of this.store.list()) {
      const oid = key.replace(/\//g, '');
      if (!isOid(oid) || lfsKey(oid) !== key || now.getTime() - modified.getTime() <= graceMs) continue;
      batch.push({ key, oid });
      if (batch.length >= 500) await sweep();
    }
    if (batch.length) await sweep();
    return removed;
  }

  // ------------------------------------------------------------------ locks

  private async view(rows: LfsLockRow[]): Promise<LockView[]> {
    if (!rows.length) return [];
    const owners = await this.deps.db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, [...new Set(rows.map((r) => r.ownerId))]));
    const names = new Map(owners.map((o) => [o.id, o.name]));
    return rows.map((lock) => ({ lock, ownerName: names.get(lock.ownerId) ?? '' }));
  }

  /** `POST …/locks`: a writer locks a path; a path already locked is 409 with the lock. */
  async createLock(access: LfsAccess, path: unknown): Promise<LockView> {
    if (!access.actor) throw new Unauthorized('Authentication required');
    const clean = cleanLockPath(path);
    try {
      const [row] = await this.deps.db.insert(lfsLocks).values({ repoId: access.loaded.repo.id, ownerId: access.actor.id, path: clean }).returning();
      return (await this.view([row!]))[0]!;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const [existing] = await this.deps.db.select().from(lfsLocks).where(and(eq(lfsLocks.repoId, access.loaded.repo.id), eq(lfsLocks.path, clean)));
      throw new LockExists(existing ? (await this.view([existing]))[0] : undefined);
    }
  }

  /** `GET …/locks`: by id or path, or a page of all (cursor = the last id seen). */
  async listLocks(access: LfsAccess, q: { id?: string; path?: string; cursor?: string; limit?: string }): Promise<{ locks: LockView[]; nextCursor?: string }> {
    const repoId = access.loaded.repo.id;
    if (q.id !== undefined && q.id !== '') {
      const id = Number(q.id);
      if (!Number.isSafeInteger(id) || id <= 0) return { locks: [] };
      const rows = await this.deps.db.select().from(lfsLocks).where(and(eq(lfsLocks.repoId, repoId), eq(lfsLocks.id, id)));
      return { locks: await this.view(rows) };
    }
    if (q.path !== undefined && q.path !== '') {
      const rows = await this.deps.db.select().from(lfsLocks).where(and(eq(lfsLocks.repoId, repoId), eq(lfsLocks.path, cleanLockPath(q.path))));
      return { locks: await this.view(rows) };
    }
    return this.page(repoId, q.cursor, q.limit);
  }

  private async page(repoId: number, cursor: unknown, limit: unknown): Promise<{ locks: LockView[]; nextCursor?: string }> {
    const max = this.deps.config.lfs.locksPagingNum;
    const n = Math.min(Math.max(Number(limit) || max, 1), max);
    const after = Number(cursor) > 0 ? Number(cursor) : 0;
    const rows = await this.deps.db.select().from(lfsLocks).where(and(eq(lfsLocks.repoId, repoId), gt(lfsLocks.id, Number.isSafeInteger(after) ? after : 0)))
      .orderBy(asc(lfsLocks.id)).limit(n + 1);
    const more = rows.length > n;
    const page = rows.slice(0, n);
    return { locks: await this.view(page), nextCursor: more ? String(page[page.length - 1]!.id) : undefined };
  }

  /** `POST …/locks/verify` (before a push): the caller's locks and everyone else's. */
  async verifyLocks(access: LfsAccess, cursor: unknown, limit: unknown): Promise<{ ours: LockView[]; theirs: LockView[]; nextCursor?: string }> {
    if (!access.actor) throw new Unauthorized('Authentication required');
    const { locks, nextCursor } = await this.page(access.loaded.repo.id, cursor, limit);
    const me = access.actor.id;
    return { ours: locks.filter((l) => l.lock.ownerId === me), theirs: locks.filter((l) => l.lock.ownerId !== me), nextCursor };
  }

  /** `POST …/locks/{id}/unlock`: its owner; anyone else only with `force` and as an administrator of the repository. */
  async unlock(access: LfsAccess, id: string, force: boolean): Promise<LockView> {
    if (!access.actor) throw new Unauthorized('Authentication required');
    const n = Number(id);
    if (!Number.isSafeInteger(n) || n <= 0) throw new NotFound();
    const [row] = await this.deps.db.select().from(lfsLocks).where(and(eq(lfsLocks.repoId, access.loaded.repo.id), eq(lfsLocks.id, n)));
    if (!row) throw new NotFound();
    if (row.ownerId !== access.actor.id) {
      if (!force) throw new Forbidden("user doesn't own lock and force flag is not set");
      if (!isRepoAdmin(access.loaded.perm) && !access.actor.isAdmin) throw new Forbidden('only an administrator of the repository may force an unlock');
    }
    const view = (await this.view([row]))[0]!;
    await this.deps.db.delete(lfsLocks).where(eq(lfsLocks.id, row.id));
    return view;
  }
}

/** A path that is locked already: 409 with the existing lock. */
export class LockExists extends Conflict {
  constructor(readonly existing: LockView | undefined) {
    super('already created lock');
  }
}
