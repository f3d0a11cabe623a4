// Uploaded avatars on the local disk: `$DATA_DIR/avatars/<user id>`, the picture as it was sent. The
// file's presence is what "has an uploaded avatar" means. Writes go to `$DATA_DIR/tmp` first and arrive
// by rename (same file system), so a reader sees the old picture or the new one, never half of one.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface StoredAvatar {
  bytes: Buffer;
  modified: Date;
}

export class AvatarStorage {
  constructor(private readonly dataDir: string) {}

  pathOf(userId: number): string {
    // The id names a path: nothing but a positive integer may reach the file system.
    if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error(`not a user id: ${JSON.stringify(userId)}`);
    return join(this.dataDir, 'avatars', String(userId));
  }

  async write(userId: number, bytes: Buffer): Promise<void> {
    const to = this.pathOf(userId);
    const tmpDir = join(this.dataDir, 'tmp');
    await mkdir(tmpDir, { recursive: true });
    await mkdir(join(this.dataDir, 'avatars'), { recursive: true });
    const tmp = join(tmpDir, `${randomUUID()}.avatar`);
    try {
      await writeFile(tmp, bytes);
      await rename(tmp, to);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /** The uploaded picture, or undefined when there is none. */
  async read(userId: number): Promise<StoredAvatar | undefined> {
    const path = this.pathOf(userId);
    try {
      const [bytes, info] = await Promise.all([readFile(path), stat(path)]);
      return { bytes, modified: info.mtime };
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async remove(userId: number): Promise<void> {
    await rm(this.pathOf(userId), { force: true });
  }
}
