// The v1–v3 artifact protocol (`actions/upload-artifact@v3`, `download-artifact@v3`, act_runner's
// ACTIONS_RUNTIME_URL), as Gitea serves it under /api/actions_pipeline/_apis/pipelines/workflows/{run}/artifacts:
// a task (its runtime token as Bearer) opens a container for an artifact name, PUTs each file in chunks
// (Content-Range; gzip'ed when the uploader says Content-Encoding: gzip, stored and served so), PATCHes to
// confirm, which merges every file's chunks; downloads list the run's artifacts, their files and each
// file. An artifact is one action_artifacts row (version 3) with its files in action_artifact_files, so
// the API lists it, zips it (src/services/actions/artifacts.ts) and cleanup_actions expires it.
// As in Gitea (which keys an artifact's files by run, name and path), several jobs of a run (a matrix)
// may upload to one name: each job uploads into its own pending row, and its confirmation adds its files
// to the run's confirmed artifact of that name (a path uploaded again replaces that file) in one transaction.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { actionArtifactFiles, actionArtifacts, type ActionArtifactRow } from '../../db/schema/index.js';
import type { ServiceDeps } from '../context.js';
import type { ArtifactService, TaskCaller } from './artifacts.js';
import { checkArtifactName } from './artifacts.js';
import { BadRequest, Conflict, NotFound } from '../errors.js';

/** The storage failed (the S3 server answered an error, the disk is full…), not the upload: not a 400. */
const storageFault = (err: unknown) => {
  const e = err as { $metadata?: unknown; code?: string };
  return e.$metadata !== undefined || ['ENOSPC', 'EDQUOT', 'EACCES', 'EROFS', 'EIO', 'ECONNREFUSED'].includes(e.code ?? '');
};

/** The largest chunk taken in one PUT (the toolkit sends 4–8 MiB). */
const maxChunkBytes = 64 * 1024 * 1024;

export const pipelinePrefix = '/api/actions_pipeline/_apis/pipelines/workflows/';

const md5Hex = (s: string) => createHash('md5').update(s).digest('hex');

export interface ChunkUpload {
  itemPath: string | undefined;
  contentRange: string | undefined;
  contentLength: string | undefined;
  fileLength: string | undefined;
  contentEncoding: string | undefined;
  md5: string | undefined;
}

export interface ContainerItem {
  path: string;
  itemType: 'file';
  contentLocation: string;
}

/** An `itemPath` (`<artifact name>/<path in it>`, `\` from Windows runners too) split, `..` refused. */
function splitItemPath(itemPath: string | undefined): { name: string; path: string } {
  const parts = (itemPath ?? '').split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) throw new BadRequest('itemPath must not contain ..');
  const [name, ...rest] = parts;
  if (!name) throw new BadRequest('itemPath is missing');
  return { name: checkArtifactName(name), path: rest.join('/') };
}

function intHeader(value: string | undefined, what: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value.trim())) throw new BadRequest(`${what} is not a number`);
  return Number(value.trim());
}

export class PipelineArtifacts {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly artifacts: ArtifactService,
  ) {}

  private base(runId: number): string {
    return `${this.deps.config.rootUrl}${pipelinePrefix.slice(1)}${runId}/artifacts`;
  }

  /** The run in the path must be the task's (Gitea: 400 run-id does not match). */
  checkRun(caller: TaskCaller, runParam: string): number {
    if (!/^\d{1,15}$/.test(runParam) || Number(runParam) !== caller.run.id) throw new BadRequest('run-id does not match');
    return caller.run.id;
  }

  /** The job's own open upload of the name (each job of a run uploads apart). */
  private async pending(caller: TaskCaller, name: string): Promise<ActionArtifactRow | undefined> {
    const [row] = await this.deps.db
      .select()
      .from(actionArtifacts)
      .where(and(
        eq(actionArtifacts.runId, caller.run.id), eq(actionArtifacts.name, name), eq(actionArtifacts.jobId, caller.jobId),
        eq(actionArtifacts.version, 3), eq(actionArtifacts.status, 'upload_pending'),
      ))
      .orderBy(asc(actionArtifacts.id))
      .limit(1);
    return row;
  }

  /** The run's confirmed v1–v3 artifact of the name, the one later uploads of the name add their files to. */
  private async confirmed(runId: number, name: string): Promise<ActionArtifactRow | undefined> {
    const [row] = await this.deps.db
      .select()
      .from(actionArtifacts)
      .where(and(eq(actionArtifacts.runId, runId), eq(actionArtifacts.name, name), eq(actionArtifacts.version, 3), eq(actionArtifacts.status, 'upload_confirmed')))
      .orderBy(asc(actionArtifacts.id))
      .limit(1);
    return row;
  }

  /** POST …/artifacts: opens (or reopens, while pending) the container an artifact's files go to. */
  async createContainer(caller: TaskCaller, body: { Name?: unknown; RetentionDays?: unknown }): Promise<{ fileContainerResourceUrl: string }> {
    const name = checkArtifactName(body.Name);
    const { retentionDays, artifactRetentionDays } = this.deps.config.actions;
    let days = artifactRetentionDays;
    if (body.RetentionDays !== undefined && body.RetentionDays !== null) {
      const asked = Number(body.RetentionDays);
      if (!Number.isSafeInteger(asked) || asked < 0) throw new BadRequest('RetentionDays must be a whole number of days');
      if (asked > 0) days = Math.min(asked, retentionDays);
    }
    // A v4 artifact (one zip) of the name cannot take files; a v1–v3 one can (see confirm).
    const taken = await this.deps.db
      .select({ id: actionArtifacts.id })
      .from(actionArtifacts)
      .where(and(eq(actionArtifacts.runId, caller.run.id), eq(actionArtifacts.name, name), eq(actionArtifacts.version, 4), eq(actionArtifacts.status, 'upload_confirmed')));
    if (taken.length) throw new Conflict(`an artifact named ${name} already exists in this run`);
    const expiresAt = new Date(Date.now() + days * 86_400_000);
    const open = await this.pending(caller, name);
    if (open) {
      await this.deps.db.update(actionArtifacts).set({ expiresAt, updatedAt: new Date() }).where(eq(actionArtifacts.id, open.id));
    } else {
      await this.deps.db.insert(actionArtifacts).values({
        runId: caller.run.id, repoId: caller.run.repoId, ownerId: caller.run.ownerId, jobId: caller.jobId, name, version: 3, expiresAt,
      });
    }
    return { fileContainerResourceUrl: `${this.base(caller.run.id)}/${md5Hex(name)}/upload` };
  }

  /** PUT …/{md5 of name}/upload?itemPath=name/path: one chunk of one file, streamed to storage. */
  async uploadChunk(caller: TaskCaller, hash: string, up: ChunkUpload, body: Readable): Promise<void> {
    const { name, path } = splitItemPath(up.itemPath);
    if (md5Hex(name) !== hash) throw new BadRequest('Invalid artifact hash');
    if (!path) throw new BadRequest('itemPath names no file in the artifact');
    // An empty file comes as one empty chunk, `bytes 0--1/0` (the toolkit's range of no bytes).
    const empty = up.contentRange?.trim() === 'bytes 0--1/0';
    const range = empty ? [, '0', '-1', '0'] : /^bytes (\d{1,15})-(\d{1,15})\/(\d{1,15})$/.exec(up.contentRange?.trim() ?? '');
    if (!range) throw new BadRequest('Content-Range must be bytes <start>-<end>/<total>');
    const [start, end, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
    if (!empty && (start > end || end >= total)) throw new BadRequest(`Content-Range ${up.contentRange} is not within the file`);
    if (end - start + 1 > maxChunkBytes) throw new BadRequest(`a chunk is at most ${maxChunkBytes} bytes`);
    const length = intHeader(up.contentLength, 'Content-Length');
    if (length !== undefined && length !== end - start + 1) throw new BadRequest('Content-Length does not match Content-Range');
    const encoding = (up.contentEncoding ?? '').trim().toLowerCase();
    if (encoding !== '' && encoding !== 'gzip') throw new BadRequest(`Content-Encoding ${encoding} is not supported`);
    const size = intHeader(up.fileLength, 'x-tfs-filelength') || total;
    const artifact = await this.pending(caller, name);
    if (!artifact) throw new NotFound(`no upload of artifact ${name} is open in this run`);

    const [file] = await this.deps.db
      .insert(actionArtifactFiles)
      .values({ artifactId: artifact.id, path, size, storedSize: total, contentEncoding: encoding })
      .onConflictDoUpdate({
        target: [actionArtifactFiles.artifactId, actionArtifactFiles.path],
        // (a file merged by an earlier, failed confirmation and now sent again is merged again)
        set: { size, storedSize: total, contentEncoding: encoding, storagePath: '' },
      })
      .returning({ id: actionArtifactFiles.id });
    if (empty) return;
    let saved: 'ok' | 'short' | 'md5';
    try {
      saved = await this.artifacts.storage.putChunk(artifact.id, file!.id, start, end, body, up.md5?.trim() || undefined);
    } catch (err) {
      if (storageFault(err)) throw err;
      throw new BadRequest(`the chunk was not received whole: ${(err as Error).message}`);
    }
    if (saved === 'short') throw new BadRequest('the chunk\'s length does not match its Content-Range');
    if (saved === 'md5') throw new BadRequest('x-actions-results-md5 does not match the chunk');
  }

  /**
   * PATCH …/artifacts?artifactName=: every file's chunks merged. The first upload of a name in the run
   * becomes its artifact; a later one (another job of the run, or the same job again) adds its files to
   * it, a path already there replacing that file. Files are merged (storage) before the one transaction
   * that moves the rows, so the artifact is never seen half-updated.
   */
  async confirm(caller: TaskCaller, artifactName: string | undefined): Promise<void> {
    if (!artifactName) throw new BadRequest('Error artifact name is empty');
    const name = checkArtifactName(artifactName);
    const artifact = await this.pending(caller, name);
    if (!artifact) throw new NotFound(`no upload of artifact ${name} is open in this run`);
    const files = await this.deps.db.select().from(actionArtifactFiles).where(eq(actionArtifactFiles.artifactId, artifact.id)).orderBy(asc(actionArtifactFiles.id));
    if (files.length === 0) throw new BadRequest(`nothing was uploaded to artifact ${name}`);
    const target = await this.confirmed(artifact.runId, name);
    const folderOf = target ?? artifact;
    const { storage } = this.artifacts;
    // Each merged file is noted at once (the upload is still pending, so unseen): a confirmation that
    // fails on a later file can be repeated once that file is whole.
    for (const f of files) {
      if (f.storagePath) continue;
      const storagePath = await storage.mergeFile(artifact.runId, artifact.id, f.id, f.storedSize, folderOf.id);
      if (!storagePath) throw new BadRequest(`file ${f.path} of artifact ${name} was not uploaded whole`);
      await this.deps.db.update(actionArtifactFiles).set({ storagePath }).where(eq(actionArtifactFiles.id, f.id));
    }
    const now = new Date();
    const replaced = await this.deps.db.transaction(async (tx) => {
      // The target, unless it went meanwhile (deleted, expired): then this upload is the artifact.
      const [into] = target
        ? await tx.select().from(actionArtifacts).where(and(eq(actionArtifacts.id, target.id), eq(actionArtifacts.status, 'upload_confirmed')))
        : [];
      if (!into) {
        await tx
          .update(actionArtifacts)
          .set({ status: 'upload_confirmed', storagePath: storage.folderKey(artifact.runId, folderOf.id), size: files.reduce((n, f) => n + f.size, 0), updatedAt: now })
          .where(eq(actionArtifacts.id, artifact.id));
        return [];
      }
      const gone = await tx
        .delete(actionArtifactFiles)
        .where(and(eq(actionArtifactFiles.artifactId, into.id), inArray(actionArtifactFiles.path, files.map((f) => f.path))))
        .returning({ storagePath: actionArtifactFiles.storagePath });
      await tx.update(actionArtifactFiles).set({ artifactId: into.id }).where(eq(actionArtifactFiles.artifactId, artifact.id));
      const [total] = await tx
        .select({ n: sql<string>`coalesce(sum(${actionArtifactFiles.size}), 0)` })
        .from(actionArtifactFiles)
        .where(eq(actionArtifactFiles.artifactId, into.id));
      const later = [into.expiresAt, artifact.expiresAt].filter((d): d is Date => d !== null).sort((x, y) => y.getTime() - x.getTime())[0] ?? null;
      await tx.update(actionArtifacts).set({ size: Number(total?.n ?? 0), expiresAt: later, updatedAt: now }).where(eq(actionArtifacts.id, into.id));
      await tx.delete(actionArtifacts).where(eq(actionArtifacts.id, artifact.id));
      return gone.map((g) => g.storagePath);
    });
    for (const p of replaced) await storage.removeFile(p);
    await storage.clearUpload(artifact.id);
  }

  /** GET …/artifacts: the run's confirmed v1–v3 artifacts, each with where its files are listed. */
  async list(caller: TaskCaller): Promise<{ count: number; value: Array<{ name: string; fileContainerResourceUrl: string }> }> {
    const rows = await this.deps.db
      .select({ name: actionArtifacts.name })
      .from(actionArtifacts)
      .where(and(eq(actionArtifacts.runId, caller.run.id), eq(actionArtifacts.version, 3), eq(actionArtifacts.status, 'upload_confirmed')))
      .orderBy(asc(actionArtifacts.id));
    // (One row a name, but two jobs confirming at the same instant may each have made one.)
    const value = [...new Set(rows.map((r) => r.name))].map((name) => ({ name, fileContainerResourceUrl: `${this.base(caller.run.id)}/${md5Hex(name)}/download_url` }));
    return { count: value.length, value };
  }

  /** GET …/{md5 of name}/download_url?itemPath=name: the artifact's files and where each is downloaded. */
  async items(caller: TaskCaller, hash: string, itemPath: string | undefined): Promise<{ value: ContainerItem[] }> {
    const { name } = splitItemPath(itemPath);
    if (md5Hex(name) !== hash) throw new BadRequest('Invalid artifact hash');
    const files = await this.deps.db
      .select({ id: actionArtifactFiles.id, path: actionArtifactFiles.path })
      .from(actionArtifactFiles)
      .innerJoin(actionArtifacts, eq(actionArtifacts.id, actionArtifactFiles.artifactId))
      .where(and(eq(actionArtifacts.runId, caller.run.id), eq(actionArtifacts.name, name), eq(actionArtifacts.version, 3), eq(actionArtifacts.status, 'upload_confirmed')))
      .orderBy(asc(actionArtifactFiles.id));
    if (files.length === 0) throw new NotFound(`artifact ${name} not found`);
    return { value: files.map((f) => ({ path: `${name}/${f.path}`, itemType: 'file', contentLocation: `${this.base(caller.run.id)}/${f.id}/download` })) };
  }

  /** GET …/{file id}/download: one file as stored (its encoding said), of the task's run only (400 otherwise). */
  async download(caller: TaskCaller, fileParam: string): Promise<{ stream: Readable; size: number; encoding: string; name: string }> {
    if (!/^\d{1,15}$/.test(fileParam)) throw new NotFound('artifact file not found');
    const [row] = await this.deps.db
      .select({ f: actionArtifactFiles, runId: actionArtifacts.runId, status: actionArtifacts.status })
      .from(actionArtifactFiles)
      .innerJoin(actionArtifacts, eq(actionArtifacts.id, actionArtifactFiles.artifactId))
      .where(eq(actionArtifactFiles.id, Number(fileParam)));
    if (!row) throw new NotFound(`artifact file ${fileParam} does not exist`);
    if (row.runId !== caller.run.id) throw new BadRequest('the artifact belongs to another run');
    if (row.status !== 'upload_confirmed' || !row.f.storagePath) throw new NotFound(`artifact file ${fileParam} is not available`);
    return { stream: await this.artifacts.stored(row.f.storagePath), size: row.f.storedSize, encoding: row.f.contentEncoding, name: row.f.path.split('/').pop()! };
  }
}
