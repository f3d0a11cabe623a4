// Uploaded repository avatars, in the `repo-avatars` store (Config.storage, Gitea's [repo-avatar]): key
// 64 hex digits (the SHA-256 of the picture and 16 random bytes), the picture as it was sent. The
// repository row's `avatar` names the key in use. Every upload (and every copy into a generated
// repository) gets a key of its own, so a key belongs to one repository, a reader never sees half of a
// picture and a cached `avatar_url` never shows another one.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { readSmall, storeFor, type BlobStore } from './index.js';

const keyPattern = /^[0-9a-f]{64}$/;

/** Whether `name` can be a repository avatar's key (nothing else may reach the store). */
export const isRepoAvatarKey = (name: string): boolean => keyPattern.test(name);

/** A new key for `bytes`. */
export const newRepoAvatarKey = (bytes: Buffer): string => createHash('sha256').update(bytes).update(randomBytes(16)).digest('hex');

export class RepoAvatarStorage {
  readonly store: BlobStore;

  constructor(config: Config) {
    this.store = storeFor(config, 'repo-avatars');
  }

  private static check(key: string): string {
    if (!isRepoAvatarKey(key)) throw new Error(`not a repository avatar key: ${JSON.stringify(key)}`);
    return key;
  }

  async write(key: string, bytes: Buffer): Promise<void> {
    await this.store.put(RepoAvatarStorage.check(key), Readable.from([bytes]));
  }

  /** The picture, or undefined when there is none under `key`. */
  async read(key: string): Promise<Buffer | undefined> {
    const stream = await this.store.get(RepoAvatarStorage.check(key));
    return stream ? readSmall(stream) : undefined;
  }

  async remove(key: string): Promise<void> {
    await this.store.remove(RepoAvatarStorage.check(key));
  }
}
