// Actions artifact files: `$DATA_DIR/actions_artifacts/<run>/<artifact id>.zip`. Uploads arrive in blocks
// (Azure's Put Block, or appended blocks) under `$DATA_DIR/tmp/artifacts/<artifact id>/`, each streamed
// to disk; committing the block list concatenates them (streamed, never whole in memory) into a temporary
// file that is renamed into place, so an artifact's file is wholly there or not at all.
// A v1–v3 artifact is a folder, `$DATA_DIR/actions_artifacts/<run>/<artifact id>/<file id>`: each file's
// chunks (Content-Range) arrive under `$DATA_DIR/tmp/artifacts/<artifact id>/file-<file id>/` and are
// merged, in order, when the upload is confirmed.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export class ArtifactStorage {
  constructor(private readonly dataDir: string) {}

  private uploadDir(artifactId: number): string {
    return join(this.dataDir, 'tmp', 'artifacts', String(artifactId));
  }

  /** A block's file: the block id (any text the uploader chose) as hex. */
  private blockPath(artifactId: number, blockId: string): string {
    return join(this.uploadDir(artifactId), `block-${Buffer.from(blockId, 'utf8').toString('hex').slice(0, 200)}`);
  }

  /** The stored file's path relative to DATA_DIR. */
  relativePath(runId: number, artifactId: number): string {
    return join('actions_artifacts', String(runId), `${artifactId}.zip`);
  }

  absolute(relative: string): string {
    return join(this.dataDir, relative);
  }

  /** Streams one block to disk (written aside, then renamed: a block is whole or absent). */
  async putBlock(artifactId: number, blockId: string, body: Readable, maxBytes: number): Promise<number> {
    await mkdir(this.uploadDir(artifactId), { recursive: true });
    const to = this.blockPath(artifactId, blockId);
    const part = `${to}.part`;
    let n = 0;
    body.on('data', (chunk: Buffer) => {
      n += chunk.length;
      if (n > maxBytes) body.destroy(new Error('block too large'));
    });
    await pipeline(body, createWriteStream(part));
    await rename(part, to);
    return n;
  }

  /** Appends a block to the upload (Azure's Append Block). */
  async appendBlock(artifactId: number, body: Readable): Promise<number> {
    await mkdir(this.uploadDir(artifactId), { recursive: true });
    let n = 0;
    body.on('data', (chunk: Buffer) => {
      n += chunk.length;
    });
    await pipeline(body, createWriteStream(join(this.uploadDir(artifactId), 'appended'), { flags: 'a' }));
    return n;
  }

  /**
   * Puts the upload into place: the listed blocks in order (or, with no list, what was appended).
   * Answers the stored file's size; undefined when a listed block is missing.
   */
  async commit(runId: number, artifactId: number, blockIds: string[] | undefined): Promise<number | undefined> {
    const sources = blockIds ? blockIds.map((b) => this.blockPath(artifactId, b)) : [join(this.uploadDir(artifactId), 'appended')];
    for (const s of sources) {
      try {
        await stat(s);
      } catch {
        return undefined;
      }
    }
    const target = this.absolute(this.relativePath(runId, artifactId));
    await mkdir(join(this.dataDir, 'actions_artifacts', String(runId)), { recursive: true });
    const part = join(this.uploadDir(artifactId), 'assembled.part');
    const out = createWriteStream(part);
    try {
      for (const s of sources) await pipeline(createReadStream(s), out, { end: false });
    } finally {
      await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
    }
    await rename(part, target);
    const { size } = await stat(target);
    await rm(this.uploadDir(artifactId), { recursive: true, force: true });
    return size;
  }

  open(relative: string): ReadStream {
    return createReadStream(this.absolute(relative));
  }

  async size(relative: string): Promise<number | undefined> {
    try {
      return (await stat(this.absolute(relative))).size;
    } catch {
      return undefined;
    }
  }

  /** A deleted run's folder, whatever is left in it. */
  async removeRunFolder(runId: number): Promise<void> {
    await rm(join(this.dataDir, 'actions_artifacts', String(runId)), { recursive: true, force: true });
  }

  async remove(artifactId: number, relative: string): Promise<void> {
    if (relative) await rm(this.absolute(relative), { recursive: true, force: true });
    await rm(this.uploadDir(artifactId), { recursive: true, force: true });
  }

  // --- v1–v3: files in chunks --------------------------------------------------------------------

  private chunkDir(artifactId: number, fileId: number): string {
    return join(this.uploadDir(artifactId), `file-${fileId}`);
  }

  /** A v1–v3 artifact's folder, relative to DATA_DIR. */
  folderPath(runId: number, artifactId: number): string {
    return join('actions_artifacts', String(runId), String(artifactId));
  }

  /**
   * Streams one chunk (bytes start..end of the stored file) to disk, with its MD5 (base64). A chunk
   * whose length is not end-start+1 is thrown away and answered `short`; one past `maxBytes` is cut off.
   */
  async putChunk(artifactId: number, fileId: number, start: number, end: number, body: Readable, maxBytes: number): Promise<{ ok: boolean; md5: string }> {
    const dir = this.chunkDir(artifactId, fileId);
    await mkdir(dir, { recursive: true });
    const to = join(dir, `${start}-${end}.chunk`);
    const part = `${to}.${process.pid}.${Date.now()}.part`;
    const md5 = createHash('md5');
    let n = 0;
    body.on('data', (chunk: Buffer) => {
      n += chunk.length;
      md5.update(chunk);
      if (n > maxBytes) body.destroy(new Error('chunk too large'));
    });
    try {
      await pipeline(body, createWriteStream(part));
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    }
    if (n !== end - start + 1) {
      await rm(part, { force: true });
      return { ok: false, md5: md5.digest('base64') };
    }
    await rename(part, to);
    return { ok: true, md5: md5.digest('base64') };
  }

  /** Throws a chunk away (its MD5 did not match). */
  async dropChunk(artifactId: number, fileId: number, start: number, end: number): Promise<void> {
    await rm(join(this.chunkDir(artifactId, fileId), `${start}-${end}.chunk`), { force: true });
  }

  /**
   * Merges a file's chunks (in order, from byte 0, a repeated chunk once) into the artifact's folder
   * (or the folder of `intoArtifactId`, the confirmed artifact of the name that the file is added to).
   * Answers the stored path, or undefined when the chunks do not cover `storedSize` bytes.
   */
  async mergeFile(runId: number, artifactId: number, fileId: number, storedSize: number, intoArtifactId = artifactId): Promise<string | undefined> {
    const dir = this.chunkDir(artifactId, fileId);
    const names = await readdir(dir).catch(() => [] as string[]);
    const chunks = names
      .map((n) => /^(\d+)-(\d+)\.chunk$/.exec(n))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ start: Number(m[1]), end: Number(m[2]), path: join(dir, m[0]) }))
      .sort((a, b) => a.start - b.start || b.end - a.end);
    const used: typeof chunks = [];
    let next = 0;
    for (const c of chunks) {
      if (c.start !== next) continue;
      used.push(c);
      next = c.end + 1;
    }
    if (next !== storedSize) return undefined;
    const relative = join(this.folderPath(runId, intoArtifactId), String(fileId));
    await mkdir(this.absolute(this.folderPath(runId, intoArtifactId)), { recursive: true });
    await mkdir(this.uploadDir(artifactId), { recursive: true });
    const part = join(this.uploadDir(artifactId), `merged-${fileId}.part`);
    const out = createWriteStream(part);
    try {
      for (const c of used) await pipeline(createReadStream(c.path), out, { end: false });
    } finally {
      await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
    }
    await rename(part, this.absolute(relative));
    await rm(dir, { recursive: true, force: true });
    return relative;
  }

  /** One stored file of a v1–v3 artifact (replaced by a later upload of its path). */
  async removeFile(relative: string): Promise<void> {
    if (relative) await rm(this.absolute(relative), { force: true });
  }

  /** The chunks left of an upload, once it is confirmed. */
  async clearUpload(artifactId: number): Promise<void> {
    await rm(this.uploadDir(artifactId), { recursive: true, force: true });
  }
}
