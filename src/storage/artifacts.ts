// Actions artifact files, in the actions_artifacts storage (a folder, `$DATA_DIR/actions_artifacts` by
// default, or S3): a v4 artifact is one zip, `<run>/<artifact id>.zip`; a v1–v3 artifact a folder of files,
// `<run>/<artifact id>/<file id>`. Uploads arrive in pieces kept in the same storage under
// `tmp/<artifact id>/` (so every process, on any host sharing the storage, sees them): v4 blocks (Azure's
// Put Block, `block-<id as hex>`), appended blocks (`append-<offset>`, the offset the artifact row counts)
// and v1–v3 chunks (`file-<file id>/<start>-<end>.chunk`). Committing concatenates the pieces into the
// stored file, streamed (a multipart upload on S3), never whole in memory; the file appears whole or not
// at all, and the pieces go afterwards.
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobStore } from './blobStore.js';

/** A piece refused while it streamed in (too long, or not the length it said). */
export class PieceRefused extends Error {}

const pad = (n: number) => String(n).padStart(15, '0');

export class ArtifactStorage {
  constructor(readonly store: BlobStore) {}

  private uploadDir(artifactId: number): string {
    return `tmp/${artifactId}`;
  }

  /** A block's key: the block id (any text the uploader chose) as hex, or its sha256 when long. */
  private blockKey(artifactId: number, blockId: string): string {
    const hex = Buffer.from(blockId, 'utf8').toString('hex');
    return `${this.uploadDir(artifactId)}/block-${hex.length <= 200 ? hex : createHash('sha256').update(blockId).digest('hex')}`;
  }

  /** A v4 artifact's key. */
  zipKey(runId: number, artifactId: number): string {
    return `${runId}/${artifactId}.zip`;
  }

  /** The pieces at `keys`, one after another, as one stream (each opened when its turn comes). */
  private concat(keys: string[]): Readable {
    const { store } = this;
    return Readable.from((async function* () {
      for (const key of keys) {
        const part = await store.get(key);
        if (!part) throw new Error(`upload piece ${key} is gone`);
        for await (const chunk of part) yield chunk as Buffer;
      }
    })());
  }

  /** Stores one block (a block is whole or absent); refused past `maxBytes`. */
  async putBlock(artifactId: number, blockId: string, body: Readable, maxBytes: number): Promise<number> {
    let n = 0;
    return this.store.put(this.blockKey(artifactId, blockId), body, {
      chunk: (c) => {
        n += c.length;
        if (n > maxBytes) throw new PieceRefused('block too large');
      },
    });
  }

  /**
   * Stores an appended block (Azure's Append Block) that starts at byte `offset` of the upload, under a
   * key of its own (`append-<offset>-<uuid>`): the caller then claims the offset on the artifact's row,
   * and throws the block away (`dropAppended`) when another append took the offset first.
   */
  async appendBlock(artifactId: number, offset: number, body: Readable, maxBytes: number): Promise<{ bytes: number; key: string }> {
    let n = 0;
    const key = `${this.uploadDir(artifactId)}/append-${pad(offset)}-${randomUUID()}`;
    const bytes = await this.store.put(key, body, {
      chunk: (c) => {
        n += c.length;
        if (n > maxBytes) throw new PieceRefused('block too large');
      },
    });
    return { bytes, key };
  }

  async dropAppended(key: string): Promise<void> {
    await this.store.remove(key);
  }

  /**
   * Puts the upload into place: the listed blocks in order, or with no list what was appended (which
   * must cover `appendedSize` bytes from 0). Answers the stored file's size; undefined when a listed
   * block is missing or the appended blocks leave a gap.
   */
  async commit(runId: number, artifactId: number, blockIds: string[] | undefined, appendedSize = 0): Promise<number | undefined> {
    let keys: string[];
    if (blockIds) {
      keys = blockIds.map((b) => this.blockKey(artifactId, b));
      for (const k of keys) if (!(await this.store.stat(k))) return undefined;
    } else {
      // (A block whose append lost its offset to another and was not thrown away, its process having
      // died, may lie beside the one that took the offset: the chain that covers the size is taken.)
      const found: Array<{ key: string; offset: number; size: number }> = [];
      for await (const { key } of this.store.list(this.uploadDir(artifactId))) {
        const m = /\/append-(\d+)-[0-9a-f-]+$/.exec(key);
        const info = m ? await this.store.stat(key) : undefined;
        if (m && info) found.push({ key, offset: Number(m[1]), size: info.size });
      }
      const chain = (from: number): string[] | undefined => {
        if (from === appendedSize) return [];
        for (const f of found.filter((x) => x.offset === from && x.size > 0)) {
          const rest = chain(from + f.size);
          if (rest) return [f.key, ...rest];
        }
        return undefined;
      };
      const picked = chain(0);
      if (!picked || (picked.length === 0 && !found.length)) return undefined;
      keys = picked;
    }
    const size = await this.store.put(this.zipKey(runId, artifactId), this.concat(keys));
    await this.store.removeAll(this.uploadDir(artifactId));
    return size;
  }

  /** A stored file (`key` as the row names it), streamed; undefined when it is gone. */
  open(key: string): Promise<Readable | undefined> {
    return this.store.get(key);
  }

  /** A presigned URL of a stored file when the storage serves directly (SERVE_DIRECT); else undefined. */
  directUrl(key: string, filename: string): Promise<string | undefined> {
    return this.store.directUrl(key, { filename });
  }

  /** A run's artifacts, whatever is left of them. */
  async removeRun(runId: number): Promise<void> {
    await this.store.removeAll(String(runId));
  }

  /** An artifact's stored file or folder (`key`, as its row names it) and what is left of its upload. */
  async remove(artifactId: number, key: string): Promise<void> {
    if (key) {
      // (the folder first: a folder is no blob to a local store's remove)
      await this.store.removeAll(key);
      await this.store.remove(key);
    }
    await this.store.removeAll(this.uploadDir(artifactId));
  }

  /**
   * Every run folder and upload in the storage: `runs` the run ids with stored files, `uploads` the
   * artifact ids with pieces (with their newest piece's time).
   */
  async inventory(): Promise<{ runs: Set<number>; uploads: Map<number, Date> }> {
    const runs = new Set<number>();
    const uploads = new Map<number, Date>();
    for await (const { key, modified } of this.store.list()) {
      const t = /^tmp\/(\d{1,15})\//.exec(key);
      if (t) {
        const id = Number(t[1]);
        const seen = uploads.get(id);
        if (!seen || seen < modified) uploads.set(id, modified);
        continue;
      }
      const r = /^(\d{1,15})\//.exec(key);
      if (r) runs.add(Number(r[1]));
    }
    return { runs, uploads };
  }

  // --- v1–v3: files in chunks --------------------------------------------------------------------

  private chunkDir(artifactId: number, fileId: number): string {
    return `${this.uploadDir(artifactId)}/file-${fileId}`;
  }

  /** A v1–v3 artifact's folder key. */
  folderKey(runId: number, artifactId: number): string {
    return `${runId}/${artifactId}`;
  }

  /**
   * Stores one chunk (bytes start..end of the stored file). A chunk whose length is not end-start+1 is
   * `short`, one whose MD5 (base64) is not `md5` (when given) `md5`; either is not kept.
   */
  async putChunk(artifactId: number, fileId: number, start: number, end: number, body: Readable, md5?: string): Promise<'ok' | 'short' | 'md5'> {
    const hash = createHash('md5');
    const want = end - start + 1;
    let n = 0;
    let refused: 'short' | 'md5' | undefined;
    try {
      await this.store.put(`${this.chunkDir(artifactId, fileId)}/${start}-${end}.chunk`, body, {
        chunk: (c) => {
          n += c.length;
          hash.update(c);
          if (n > want) throw new PieceRefused((refused = 'short'));
        },
        end: () => {
          if (n !== want) throw new PieceRefused((refused = 'short'));
          if (md5 && hash.digest('base64') !== md5) throw new PieceRefused((refused = 'md5'));
        },
      });
    } catch (err) {
      if (refused) return refused;
      throw err;
    }
    return 'ok';
  }

  /**
   * Merges a file's chunks (in order, from byte 0, a repeated chunk once) into the artifact's folder
   * (or the folder of `intoArtifactId`, the confirmed artifact of the name that the file is added to).
   * Answers the stored key, or undefined when the chunks do not cover `storedSize` bytes.
   */
  async mergeFile(runId: number, artifactId: number, fileId: number, storedSize: number, intoArtifactId = artifactId): Promise<string | undefined> {
    const chunks = [];
    for await (const { key } of this.store.list(this.chunkDir(artifactId, fileId))) {
      const m = /\/(\d+)-(\d+)\.chunk$/.exec(key);
      if (m) chunks.push({ start: Number(m[1]), end: Number(m[2]), key });
    }
    chunks.sort((a, b) => a.start - b.start || b.end - a.end);
    const used: string[] = [];
    let next = 0;
    for (const c of chunks) {
      if (c.start !== next) continue;
      used.push(c.key);
      next = c.end + 1;
    }
    if (next !== storedSize) return undefined;
    const key = `${this.folderKey(runId, intoArtifactId)}/${fileId}`;
    await this.store.put(key, this.concat(used));
    await this.store.removeAll(this.chunkDir(artifactId, fileId));
    return key;
  }

  /** One stored file of a v1–v3 artifact (replaced by a later upload of its path). */
  async removeFile(key: string): Promise<void> {
    if (key) await this.store.remove(key);
  }

  /** The chunks left of an upload, once it is confirmed. */
  async clearUpload(artifactId: number): Promise<void> {
    await this.store.removeAll(this.uploadDir(artifactId));
  }
}
