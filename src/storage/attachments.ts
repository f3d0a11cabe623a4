// Attachment files on the local disk: `$DATA_DIR/attachments/<uuid[0]>/<uuid[1]>/<uuid>`, as Gitea lays
// them out. Files arrive by rename from `$DATA_DIR/tmp` (same file system), so a file is either wholly
// in place or not there at all.
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isAttachmentUuid = (uuid: string) => uuidShape.test(uuid);

export class AttachmentStorage {
  constructor(private readonly dataDir: string) {}

  /** Where uploads wait until they are accepted or refused. */
  get tmpDir(): string {
    return join(this.dataDir, 'tmp');
  }

  pathOf(uuid: string): string {
    // The uuid names a path: nothing but a well-formed one may reach the file system.
    if (!isAttachmentUuid(uuid)) throw new Error(`not an attachment uuid: ${JSON.stringify(uuid)}`);
    return join(this.dataDir, 'attachments', uuid[0]!, uuid[1]!, uuid);
  }

  /** Moves an uploaded file into place. */
  async moveIn(from: string, uuid: string): Promise<void> {
    const to = this.pathOf(uuid);
    await mkdir(dirname(to), { recursive: true });
    await rename(from, to);
  }

  /** The file's size, or undefined when it is missing. */
  async size(uuid: string): Promise<number | undefined> {
    try {
      return (await stat(this.pathOf(uuid))).size;
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** The first `n` bytes (fewer for a short or missing file), for content sniffing. */
  async head(uuid: string, n = 512): Promise<Buffer> {
    let handle;
    try {
      handle = await open(this.pathOf(uuid), 'r');
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return Buffer.alloc(0);
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

  read(uuid: string): ReadStream {
    return createReadStream(this.pathOf(uuid));
  }

  async remove(uuid: string): Promise<void> {
    await rm(this.pathOf(uuid), { force: true });
  }
}
