// Uploaded avatars, in the `avatars` store (Config.storage): key `<user id>` (locally
// `$DATA_DIR/avatars/<user id>`), the picture as it was sent. Its presence is what "has an uploaded
// avatar" means. A store writes a blob whole or not at all, so a reader sees the old picture or the new
// one, never half of one. Pictures are at most 1 MiB (AVATAR_MAX_FILE_SIZE), so they are read whole.
import { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { readSmall, storeFor, type BlobStore } from './index.js';

export interface StoredAvatar {
  bytes: Buffer;
  modified: Date;
}

function avatarKey(userId: number): string {
  // The id names a key: nothing but a positive integer may reach the store.
  if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error(`not a user id: ${JSON.stringify(userId)}`);
  return String(userId);
}

export class AvatarStorage {
  readonly store: BlobStore;

  constructor(config: Config) {
    this.store = storeFor(config, 'avatars');
  }

  async write(userId: number, bytes: Buffer): Promise<void> {
    await this.store.put(avatarKey(userId), Readable.from([bytes]));
  }

  /** The uploaded picture, or undefined when there is none. */
  async read(userId: number): Promise<StoredAvatar | undefined> {
    const key = avatarKey(userId);
    const info = await this.store.stat(key);
    if (!info) return undefined;
    const stream = await this.store.get(key);
    if (!stream) return undefined;
    return { bytes: await readSmall(stream), modified: info.modified };
  }

  async remove(userId: number): Promise<void> {
    await this.store.remove(avatarKey(userId));
  }
}
