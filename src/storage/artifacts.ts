// Actions artifact files: `$DATA_DIR/actions_artifacts/<run>/<artifact id>.zip`. Uploads arrive in blocks
// (Azure's Put Block, or appended blocks) under `$DATA_DIR/tmp/artifacts/<artifact id>/`, each streamed
// to disk; committing the block list concatenates them (streamed, never whole in memory) into a temporary
// file that is renamed into place, so an artifact's file is wholly there or not at all.
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
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
    if (relative) await rm(this.absolute(relative), { force: true });
    await rm(this.uploadDir(artifactId), { recursive: true, force: true });
  }
}
