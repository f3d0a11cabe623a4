// One interface for every kind of large blob anvil keeps (attachments and release assets, avatars,
// Actions logs and artifacts, LFS objects), with two implementations chosen per kind in configuration as
// Gitea's [storage] sections choose them: a folder on the local disk (the default) and S3-compatible
// object storage (MinIO, AWS S3, …). Blobs stream in and out; none is ever held whole in memory.
//
// Keys are relative, slash-separated names made by anvil itself (`a/b/<uuid>`, `ab/cd/<oid tail>`, `<id>`):
// checked before they reach a file system or a bucket.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface BlobInfo {
  size: number;
  modified: Date;
}

/** Sees an upload as it streams: `chunk` each piece, `end` once it is whole; either may throw to refuse it. */
export interface BlobCheck {
  chunk?: (chunk: Buffer) => void;
  end?: () => void;
}

export interface BlobStore {
  /** `local` or `minio` (Gitea's STORAGE_TYPE names). */
  readonly type: 'local' | 'minio';
  /** Whether downloads should be redirects to a presigned URL (Gitea's SERVE_DIRECT; S3 only). */
  readonly serveDirect: boolean;
  /**
   * Writes `body` under `key`, streaming; the blob appears whole or not at all. `check` sees every chunk
   * and may throw to refuse the upload (nothing is kept then). Answers the number of bytes written.
   */
  put(key: string, body: Readable, check?: BlobCheck): Promise<number>;
  /** Moves a finished local file (an upload spooled to disk) under `key`; the file is gone afterwards. */
  putFile(key: string, path: string): Promise<void>;
  /** The blob, streamed; undefined when there is none. `range` is inclusive, as HTTP's. */
  get(key: string, range?: { start: number; end?: number }): Promise<Readable | undefined>;
  stat(key: string): Promise<BlobInfo | undefined>;
  /** The first `n` bytes (fewer for a short blob, none for a missing one). */
  head(key: string, n?: number): Promise<Buffer>;
  /** Removes the blob; a missing one is no error. */
  remove(key: string): Promise<void>;
  /**
   * Every key with its last change (for sweeps of what nothing refers to); with `under`, only the keys
   * in that folder (`under/…`).
   */
  list(under?: string): AsyncIterable<{ key: string; modified: Date }>;
  /** Removes every blob in the folder `under` (`under/…`); none is no error. */
  removeAll(under: string): Promise<void>;
  /** A presigned GET URL when `serveDirect`; undefined otherwise. */
  directUrl(key: string, opts?: { filename?: string; expiresSeconds?: number }): Promise<string | undefined>;
}

const keyShape = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export function checkKey(key: string): string {
  if (!keyShape.test(key) || key.split('/').some((s) => s === '.' || s === '..')) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  return key;
}

/** A pass-through that shows every chunk to `check` (which may throw) and counts the bytes. */
export function checking(check?: BlobCheck): Transform & { bytes: number } {
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      try {
        check?.chunk?.(chunk);
        t.bytes += chunk.length;
        done(null, chunk);
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done) {
      try {
        check?.end?.();
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  }) as Transform & { bytes: number };
  t.bytes = 0;
  return t;
}

const isMissing = (err: unknown) => (err as { code?: string }).code === 'ENOENT';

/**
 * A folder on the local disk. Blobs arrive through `<root>/.incoming` (same file system) and are renamed
 * into place, so a reader sees a whole blob or none.
 */
export class LocalBlobStore implements BlobStore {
  readonly type = 'local' as const;
  readonly serveDirect = false;

  constructor(readonly root: string) {}

  pathOf(key: string): string {
    return join(this.root, checkKey(key));
  }

  private async incoming(): Promise<string> {
    const dir = join(this.root, '.incoming');
    await mkdir(dir, { recursive: true });
    return join(dir, randomUUID());
  }

  async put(key: string, body: Readable, check?: BlobCheck): Promise<number> {
    const to = this.pathOf(key);
    const tmp = await this.incoming();
    const counter = checking(check);
    try {
      await pipeline(body, counter, createWriteStream(tmp));
      await mkdir(dirname(to), { recursive: true });
      await rename(tmp, to);
      return counter.bytes;
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async putFile(key: string, path: string): Promise<void> {
    const to = this.pathOf(key);
    await mkdir(dirname(to), { recursive: true });
    try {
      await rename(path, to);
    } catch (err) {
      if ((err as { code?: string }).code !== 'EXDEV') throw err;
      // Another file system (a PATH outside DATA_DIR): copy in beside, then rename.
      const tmp = await this.incoming();
      try {
        await copyFile(path, tmp);
        await rename(tmp, to);
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
      await rm(path, { force: true });
    }
  }

  async get(key: string, range?: { start: number; end?: number }): Promise<Readable | undefined> {
    const path = this.pathOf(key);
    // Open first, so that a missing file is known before anything is answered.
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
    return handle.createReadStream({ start: range?.start, end: range?.end, autoClose: true });
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    try {
      const st = await stat(this.pathOf(key));
      return st.isFile() ? { size: st.size, modified: st.mtime } : undefined;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async head(key: string, n = 512): Promise<Buffer> {
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (err) {
      if (isMissing(err)) return Buffer.alloc(0);
      throw err;
    }
    try {
      const buf = Buffer.alloc(n);
      const { bytesRead } = await handle.read(buf, 0, n, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async removeAll(under: string): Promise<void> {
    await rm(this.pathOf(under), { recursive: true, force: true });
  }

  async *list(under?: string): AsyncIterable<{ key: string; modified: Date }> {
    const walk = async function* (dir: string, prefix: string): AsyncGenerator<{ key: string; modified: Date }> {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        if (e.name.startsWith('.')) continue;
        const key = prefix ? `${prefix}/${e.name}` : e.name;
        if (e.isDirectory()) yield* walk(join(dir, e.name), key);
        else if (e.isFile()) {
          const st = await stat(join(dir, e.name)).catch(() => undefined);
          if (st) yield { key, modified: st.mtime };
        }
      }
    };
    yield* under ? walk(this.pathOf(under), under) : walk(this.root, '');
  }

  async directUrl(): Promise<string | undefined> {
    return undefined;
  }
}

/** Reads a whole (small) blob: avatars only, which are capped at 1 MiB. */
export async function readSmall(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}
