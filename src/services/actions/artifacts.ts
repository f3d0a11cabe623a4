// Actions artifacts: the v4 artifact protocol a running task speaks (create, upload to a signed URL in
// blocks, finalize, list, signed download, delete) and the API's reads and deletes. A task is known by its
// runtime token (the task token, sent as Bearer); signed URLs carry an HMAC keyed with the task's stored
// token hash, so every process can check them and no key needs sharing. Files are streamed to and from
// the actions_artifacts storage (storage/artifacts.ts: a folder or S3), never held whole in memory; with
// SERVE_DIRECT a v4 artifact's download is a presigned URL of the bucket. Expired artifacts lose their
// file in cleanup_actions.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { and, asc, count, desc, eq, inArray, lt, type SQL } from 'drizzle-orm';
import {
  actionArtifactFiles, actionArtifacts, actionRunJobs, actionRuns, actionTasks, type ActionArtifactRow, type ActionRunRow,
} from '../../db/schema/index.js';
import { ArtifactStorage, PieceRefused } from '../../storage/artifacts.js';
import { storeFor } from '../../storage/index.js';
import type { ServiceDeps } from '../context.js';
import type { LoadedRepo } from '../repos/loadedRepo.js';
import { zipStream, type ZipEntry } from './logArchive.js';
import { readRuntimeToken, verifyRuntimeToken } from './runtimeToken.js';
import type { SecretKey } from './secretBox.js';
import { requireReader, requireWriter } from './repoActions.js';
import { BadRequest, Conflict, NotFound, Unauthorized } from '../errors.js';

/** An artifact as the API shows it: its row and its run's commit. */
export type ArtifactView = ActionArtifactRow & { headSha: string };

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** How long a signed upload or download URL works (Gitea: an hour). */
const signedUrlMs = 60 * 60_000;
/** One uploaded block at most (the runner sends 8 MiB; Azure's limit is 4000 MiB, ours is smaller). */
const maxBlockBytes = 256 * 1024 * 1024;

export const artifactService = 'twirp/github.actions.results.api.v1.ArtifactService';

/** The running task a runtime token names, with its job and run. */
export interface TaskCaller {
  taskId: number;
  tokenHash: string;
  jobId: number;
  run: ActionRunRow;
}

/** Gitea's artifact name rule: no path separators or characters file systems refuse. */
export function checkArtifactName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw new BadRequest('artifact name is empty');
  if (/[\\/":<>|*?\r\n]/.test(name) || name.length > 255) throw new BadRequest(`invalid artifact name: ${JSON.stringify(name)}`);
  return name;
}

/** A piece refused while it streamed in is the uploader's fault (400); anything else goes on. */
const refused = (err: unknown): never => {
  if (err instanceof PieceRefused) throw new BadRequest(err.message);
  throw err;
};

export class ArtifactService {
  readonly storage: ArtifactStorage;

  constructor(
    private readonly deps: ServiceDeps,
    /** The secrets keyring, which runtime tokens are signed under. */
    private readonly keys: () => Promise<SecretKey[]>,
  ) {
    this.storage = new ArtifactStorage(storeFor(deps.config, 'actions_artifacts'));
  }

  private sign(purpose: 'upload' | 'download', artifactId: number, taskId: number, expires: number, key: string): string {
    return createHmac('sha256', key).update(`${purpose}:${artifactId}:${taskId}:${expires}`).digest('base64url');
  }

  private signedUrl(method: 'UploadArtifact' | 'DownloadArtifact', artifactId: number, caller: TaskCaller): string {
    const expires = Math.floor((Date.now() + signedUrlMs) / 1000);
    const sig = this.sign(method === 'UploadArtifact' ? 'upload' : 'download', artifactId, caller.taskId, expires, caller.tokenHash);
    return `${this.deps.config.rootUrl}${artifactService}/${method}?sig=${sig}&expires=${expires}&artifactID=${artifactId}&taskID=${caller.taskId}`;
  }

  /**
   * The task a runtime token (Bearer) names; it must be running. The token is the JWT the task got as
   * `gitea_runtime_token` (src/services/actions/runtimeToken.ts) or, as older runners send, the task token.
   */
  async caller(authorization: string | undefined): Promise<TaskCaller> {
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
    if (!bearer) throw new Unauthorized('Bad authorization header');
    const select = () =>
      this.deps.db
        .select({ taskId: actionTasks.id, tokenHash: actionTasks.tokenHash, jobId: actionTasks.jobId, run: actionRuns })
        .from(actionTasks)
        .innerJoin(actionRunJobs, eq(actionRunJobs.id, actionTasks.jobId))
        .innerJoin(actionRuns, eq(actionRuns.id, actionRunJobs.runId));
    if (/^[0-9a-f]{40}$/i.test(bearer)) {
      const [row] = await select().where(and(eq(actionTasks.tokenHash, hash(bearer.toLowerCase())), eq(actionTasks.status, 'running')));
      if (!row) throw new Unauthorized('Bad authorization: the task is not running');
      return row;
    }
    const claims = readRuntimeToken(bearer);
    if (!claims) throw new Unauthorized('Bad authorization: not a runtime token');
    const [row] = await select().where(and(eq(actionTasks.id, claims.taskId), eq(actionTasks.status, 'running')));
    if (!row || row.run.id !== claims.runId || row.jobId !== claims.jobId || !verifyRuntimeToken(await this.keys(), row.tokenHash, bearer)) {
      throw new Unauthorized('Bad authorization: the token is not valid or its task is not running');
    }
    return row;
  }

  /** Checks a signed URL's query; answers the artifact and the task that signed it. */
  private async verify(purpose: 'upload' | 'download', q: Record<string, string | undefined>): Promise<ActionArtifactRow> {
    const artifactId = Number(q.artifactID);
    const taskId = Number(q.taskID);
    const expires = Number(q.expires);
    if (!Number.isSafeInteger(artifactId) || !Number.isSafeInteger(taskId) || !Number.isSafeInteger(expires) || !q.sig) throw new NotFound();
    const [task] = await this.deps.db.select({ tokenHash: actionTasks.tokenHash }).from(actionTasks).where(eq(actionTasks.id, taskId));
    if (!task) throw new NotFound();
    const want = Buffer.from(this.sign(purpose, artifactId, taskId, expires, task.tokenHash));
    const got = Buffer.from(q.sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw new NotFound();
    if (expires * 1000 < Date.now()) throw new Unauthorized('Error link expired');
    const [artifact] = await this.deps.db.select().from(actionArtifacts).where(eq(actionArtifacts.id, artifactId));
    if (!artifact) throw new NotFound();
    return artifact;
  }

  // --- the v4 protocol ---------------------------------------------------------------------------

  /** CreateArtifact: a pending artifact of the task's run (replacing a pending one of that name). */
  async create(caller: TaskCaller, input: { name?: unknown; expiresAt?: unknown }): Promise<{ uploadUrl: string }> {
    const name = checkArtifactName(input.name);
    const { retentionDays, artifactRetentionDays } = this.deps.config.actions;
    let days = artifactRetentionDays;
    if (typeof input.expiresAt === 'string' && input.expiresAt) {
      const at = Date.parse(input.expiresAt);
      if (Number.isNaN(at)) throw new BadRequest('expires_at is not a time');
      days = Math.max(1, Math.min(retentionDays, Math.ceil((at - Date.now()) / 86_400_000)));
    }
    const same = and(eq(actionArtifacts.runId, caller.run.id), eq(actionArtifacts.name, name));
    const existing = await this.deps.db.select().from(actionArtifacts).where(same);
    // (a pending upload of the name, v4 or v3, is replaced; a confirmed one of either stays.)
    if (existing.some((a) => a.status === 'upload_confirmed')) throw new Conflict(`an artifact named ${name} already exists in this run`);
    for (const a of existing) {
      await this.deps.db.delete(actionArtifacts).where(eq(actionArtifacts.id, a.id));
      await this.storage.remove(a.id, a.storagePath);
    }
    const [row] = await this.deps.db
      .insert(actionArtifacts)
      .values({
        runId: caller.run.id, repoId: caller.run.repoId, ownerId: caller.run.ownerId, jobId: caller.jobId, name, version: 4,
        expiresAt: new Date(Date.now() + days * 86_400_000),
      })
      .returning();
    return { uploadUrl: this.signedUrl('UploadArtifact', row!.id, caller) };
  }

  /** A PUT to the signed upload URL: a block (comp=block&blockid=…), an appended block, or the block list. */
  async upload(q: Record<string, string | undefined>, body: Readable): Promise<void> {
    const artifact = await this.verify('upload', q);
    if (artifact.status !== 'upload_pending') throw new Conflict('the artifact is already finalized');
    if (q.comp === 'block') {
      if (!q.blockid) throw new BadRequest('blockid is missing');
      await this.storage.putBlock(artifact.id, q.blockid, body, maxBlockBytes).catch(refused);
      return;
    }
    if (q.comp === 'blocklist') {
      const chunks: Buffer[] = [];
      let n = 0;
      for await (const c of body as AsyncIterable<Buffer>) {
        n += c.length;
        if (n > 4 * 1024 * 1024) throw new BadRequest('block list too large');
        chunks.push(c);
      }
      const ids = [...Buffer.concat(chunks).toString('utf8').matchAll(/<(?:Latest|Committed|Uncommitted)>([^<]*)<\/(?:Latest|Committed|Uncommitted)>/g)].map((m) => m[1]!);
      const size = await this.storage.commit(artifact.runId, artifact.id, ids);
      if (size === undefined) throw new BadRequest('a listed block was never uploaded');
      await this.deps.db
        .update(actionArtifacts)
        .set({ storagePath: this.storage.zipKey(artifact.runId, artifact.id), size, updatedAt: new Date() })
        .where(eq(actionArtifacts.id, artifact.id));
      return;
    }
    // Append Block (comp=appendBlock) or a whole upload with no comp: appended at the bytes the row counts
    // so far (claimed after the block is stored: of two appends at once, one wins, the other is 409),
    // committed at finalize.
    if (artifact.storagePath) throw new Conflict('the block list was already committed');
    const offset = artifact.size;
    const { bytes, key } = await this.storage.appendBlock(artifact.id, offset, body, maxBlockBytes).catch(refused);
    const claimed = await this.deps.db
      .update(actionArtifacts)
      .set({ size: offset + bytes, updatedAt: new Date() })
      .where(and(eq(actionArtifacts.id, artifact.id), eq(actionArtifacts.size, offset), eq(actionArtifacts.status, 'upload_pending'), eq(actionArtifacts.storagePath, '')))
      .returning({ id: actionArtifacts.id });
    if (claimed.length === 0) {
      await this.storage.dropAppended(key);
      throw new Conflict('another block was appended at the same time');
    }
  }

  /** FinalizeArtifact: the upload is complete; its size (and sha256, when given) must match. */
  async finalize(caller: TaskCaller, input: { name?: unknown; size?: unknown; hash?: unknown }): Promise<number> {
    const name = checkArtifactName(input.name);
    const [artifact] = await this.deps.db
      .select()
      .from(actionArtifacts)
      .where(and(eq(actionArtifacts.runId, caller.run.id), eq(actionArtifacts.name, name), eq(actionArtifacts.version, 4), eq(actionArtifacts.status, 'upload_pending')))
      .orderBy(desc(actionArtifacts.id))
      .limit(1);
    if (!artifact) throw new NotFound('artifact not found');
    let storagePath = artifact.storagePath;
    let size = artifact.size;
    if (!storagePath) {
      // Appended blocks (or one whole upload) are put into place now.
      const committed = await this.storage.commit(artifact.runId, artifact.id, undefined, artifact.size);
      if (committed === undefined) throw new BadRequest('nothing was uploaded');
      storagePath = this.storage.zipKey(artifact.runId, artifact.id);
      size = committed;
    }
    if (input.size !== undefined && input.size !== null && input.size !== '' && Number(input.size) !== size) {
      throw new BadRequest(`size mismatch: uploaded ${size} bytes, finalized with ${String(input.size)}`);
    }
    const stated = typeof input.hash === 'string' ? input.hash : typeof input.hash === 'object' && input.hash ? String((input.hash as { value?: unknown }).value ?? '') : '';
    if (stated) {
      const h = createHash('sha256');
      const stored = await this.storage.open(storagePath);
      if (!stored) throw new BadRequest('nothing was uploaded');
      for await (const c of stored as AsyncIterable<Buffer>) h.update(c);
      if (stated.replace(/^sha256:/, '') !== h.digest('hex')) throw new BadRequest('hash mismatch');
    }
    await this.deps.db
      .update(actionArtifacts)
      .set({ storagePath, size, hash: stated, status: 'upload_confirmed', updatedAt: new Date() })
      .where(eq(actionArtifacts.id, artifact.id));
    return artifact.id;
  }

  /** ListArtifacts: the confirmed artifacts of the task's run. */
  async listForTask(caller: TaskCaller, filter: { name?: string; id?: number }): Promise<ActionArtifactRow[]> {
    return this.deps.db
      .select()
      .from(actionArtifacts)
      .where(and(
        eq(actionArtifacts.runId, caller.run.id), eq(actionArtifacts.version, 4), eq(actionArtifacts.status, 'upload_confirmed'),
        filter.name ? eq(actionArtifacts.name, filter.name) : undefined, filter.id ? eq(actionArtifacts.id, filter.id) : undefined,
      ))
      .orderBy(asc(actionArtifacts.id));
  }

  private async confirmedByName(caller: TaskCaller, name: unknown): Promise<ActionArtifactRow> {
    const [artifact] = await this.listForTask(caller, { name: checkArtifactName(name) });
    if (!artifact) throw new NotFound('artifact not found');
    return artifact;
  }

  /**
   * GetSignedArtifactURL: where the task downloads an artifact of its run; with SERVE_DIRECT (S3), as
   * Gitea's, a presigned URL of the bucket.
   */
  async signedDownload(caller: TaskCaller, name: unknown): Promise<string> {
    const artifact = await this.confirmedByName(caller, name);
    return (await this.storage.directUrl(artifact.storagePath, `${artifact.name}.zip`)) ?? this.signedUrl('DownloadArtifact', artifact.id, caller);
  }

  /** A stored file, streamed; 404 when it is gone from storage. */
  async stored(key: string): Promise<Readable> {
    const stream = key ? await this.storage.open(key) : undefined;
    if (!stream) throw new NotFound('the artifact\'s file is gone from storage');
    return stream;
  }

  /** A GET of the signed download URL: the zip as a stream. */
  async download(q: Record<string, string | undefined>): Promise<{ stream: Readable; size: number; name: string }> {
    const artifact = await this.verify('download', q);
    if (artifact.status !== 'upload_confirmed') throw new NotFound();
    return { stream: await this.stored(artifact.storagePath), size: artifact.size, name: artifact.name };
  }

  /** DeleteArtifact: by name, in the task's run. */
  async deleteForTask(caller: TaskCaller, name: unknown): Promise<number> {
    const artifact = await this.confirmedByName(caller, name);
    await this.remove(artifact);
    return artifact.id;
  }

  private async remove(artifact: ActionArtifactRow): Promise<void> {
    const [gone] = await this.deps.db.delete(actionArtifacts).where(eq(actionArtifacts.id, artifact.id)).returning({ id: actionArtifacts.id });
    if (gone) await this.storage.remove(artifact.id, artifact.storagePath);
  }

  // --- the API ---------------------------------------------------------------------------------------

  /** A repository's (or one run's) confirmed and expired artifacts, newest first, with a name filter. */
  async list(loaded: LoadedRepo, opts: { runId?: number; name?: string; limit: number; offset: number }): Promise<{ rows: ArtifactView[]; total: number }> {
    requireReader(loaded);
    const repoId = loaded.repo.id;
    if (opts.runId !== undefined) {
      const [run] = await this.deps.db.select({ id: actionRuns.id }).from(actionRuns).where(and(eq(actionRuns.id, opts.runId), eq(actionRuns.repoId, repoId)));
      if (!run) throw new NotFound('run not found');
    }
    const where: SQL | undefined = and(
      eq(actionArtifacts.repoId, repoId), inArray(actionArtifacts.status, ['upload_confirmed', 'expired']),
      opts.runId !== undefined ? eq(actionArtifacts.runId, opts.runId) : undefined, opts.name ? eq(actionArtifacts.name, opts.name) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      this.deps.db
        .select({ a: actionArtifacts, headSha: actionRuns.commitSha })
        .from(actionArtifacts)
        .innerJoin(actionRuns, eq(actionRuns.id, actionArtifacts.runId))
        .where(where)
        .orderBy(desc(actionArtifacts.id))
        .limit(opts.limit)
        .offset(opts.offset),
      this.deps.db.select({ n: count() }).from(actionArtifacts).where(where),
    ]);
    return { rows: rows.map((r) => ({ ...r.a, headSha: r.headSha })), total: Number(total?.n ?? 0) };
  }

  /** One artifact of a repository (404 for anything else, pending ones included). */
  async get(loaded: LoadedRepo, id: number): Promise<ArtifactView> {
    requireReader(loaded);
    const [row] = await this.deps.db
      .select({ a: actionArtifacts, headSha: actionRuns.commitSha })
      .from(actionArtifacts)
      .innerJoin(actionRuns, eq(actionRuns.id, actionArtifacts.runId))
      .where(and(eq(actionArtifacts.id, id), eq(actionArtifacts.repoId, loaded.repo.id), inArray(actionArtifacts.status, ['upload_confirmed', 'expired'])));
    if (!row) throw new NotFound('artifact not found');
    return { ...row.a, headSha: row.headSha };
  }

  async delete(loaded: LoadedRepo, id: number): Promise<void> {
    const artifact = await this.get(loaded, id);
    requireWriter(loaded);
    await this.remove(artifact);
  }

  /**
   * The zip of a confirmed artifact (404 once expired): a v4 one's stored zip; a v1–v3 one's files
   * zipped while they are sent (gzip'ed ones unpacked), so its size is not known beforehand.
   */
  async open(loaded: LoadedRepo, id: number): Promise<{ stream: Readable; size: number | undefined; name: string } | { redirect: string }> {
    const artifact = await this.get(loaded, id);
    if (artifact.status !== 'upload_confirmed') throw new NotFound('Artifact has expired');
    if (artifact.version !== 3) {
      // SERVE_DIRECT: Gitea answers a 302 to a presigned URL of the bucket.
      const redirect = await this.storage.directUrl(artifact.storagePath, `${artifact.name}.zip`);
      if (redirect) return { redirect };
      return { stream: await this.stored(artifact.storagePath), size: artifact.size, name: artifact.name };
    }
    const files = await this.deps.db.select().from(actionArtifactFiles).where(eq(actionArtifactFiles.artifactId, artifact.id)).orderBy(asc(actionArtifactFiles.id));
    const entries: ZipEntry[] = files.map((f) => ({
      name: f.path,
      open: async () => {
        const raw = await this.stored(f.storagePath);
        if (f.contentEncoding !== 'gzip') return raw;
        const gunzip = createGunzip();
        raw.once('error', (err) => gunzip.destroy(err));
        return raw.pipe(gunzip);
      },
    }));
    return { stream: zipStream(entries), size: undefined, name: artifact.name };
  }

  // --- upkeep ----------------------------------------------------------------------------------------

  /**
   * cleanup_actions: artifacts past their expiry keep their row (the API shows them expired) but lose
   * their file; uploads never finalized within a day go; folders of deleted runs go.
   */
  async expire(now = new Date()): Promise<string> {
    const { db } = this.deps;
    const expired = await db
      .update(actionArtifacts)
      .set({ status: 'expired', updatedAt: now })
      .where(and(eq(actionArtifacts.status, 'upload_confirmed'), lt(actionArtifacts.expiresAt, now)))
      .returning();
    for (const a of expired) await this.storage.remove(a.id, a.storagePath);
    const stale = await db
      .delete(actionArtifacts)
      .where(and(eq(actionArtifacts.status, 'upload_pending'), lt(actionArtifacts.updatedAt, new Date(now.getTime() - 86_400_000))))
      .returning();
    for (const a of stale) await this.storage.remove(a.id, a.storagePath);
    // Files whose run was deleted (the rows went with it), and pieces of uploads whose row is gone (a
    // process died between the two) that nothing touched for a day.
    let orphans = 0;
    let leftovers = 0;
    const { runs, uploads } = await this.storage.inventory();
    const runIds = [...runs];
    for (let i = 0; i < runIds.length; i += 500) {
      const batch = runIds.slice(i, i + 500);
      const alive = new Set((await db.select({ id: actionRuns.id }).from(actionRuns).where(inArray(actionRuns.id, batch))).map((r) => r.id));
      for (const id of batch) {
        if (alive.has(id)) continue;
        await this.storage.removeRun(id);
        orphans++;
      }
    }
    const dayAgo = new Date(now.getTime() - 86_400_000);
    const idle = [...uploads].filter(([, at]) => at < dayAgo).map(([id]) => id);
    for (let i = 0; i < idle.length; i += 500) {
      const batch = idle.slice(i, i + 500);
      const pending = new Set((await db.select({ id: actionArtifacts.id }).from(actionArtifacts).where(and(inArray(actionArtifacts.id, batch), eq(actionArtifacts.status, 'upload_pending')))).map((r) => r.id));
      for (const id of batch) {
        if (pending.has(id)) continue;
        await this.storage.clearUpload(id);
        leftovers++;
      }
    }
    return `${expired.length} artifact(s) expired, ${stale.length} unfinished upload(s), ${orphans} deleted run(s)' artifact folders and ${leftovers} abandoned upload(s) removed`;
  }
}
