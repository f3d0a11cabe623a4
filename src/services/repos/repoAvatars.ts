// Repository avatars (Gitea's `POST|DELETE /repos/{o}/{r}/avatar`): the picture in the `repo-avatars`
// store under a key of its own (storage/repoAvatars.ts), the key in `repositories.avatar`. The file is
// written before the row names it and removed after the row stopped naming it, never inside a
// transaction: a reader finds a picture behind every key a row names. A file whose write's row update
// failed is removed at once; one left by a process that died in between is unreferenced and harmless.
import { eq } from 'drizzle-orm';
import { repositories, type RepoRow } from '../../db/schema/index.js';
import { withTx } from '../../db/tx.js';
import { isRepoAdmin } from '../../permissions/repo.js';
import { isRepoAvatarKey, newRepoAvatarKey, RepoAvatarStorage } from '../../storage/repoAvatars.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, NotFound } from '../errors.js';
import { sniffImageType } from '../users/avatarImage.js';
import { decodeAvatarImage, type AvatarImage } from '../users/avatars.js';
import type { LoadedRepo } from './loadedRepo.js';

export class RepoAvatarService {
  readonly storage: RepoAvatarStorage;

  constructor(private readonly deps: ServiceDeps) {
    this.storage = new RepoAvatarStorage(deps.config);
  }

  private static requireAdmin(loaded: LoadedRepo): void {
    if (!isRepoAdmin(loaded.perm)) throw new Forbidden('user should be an owner or a collaborator with admin write of a repository');
  }

  /** Repository administrators: checks `image` as user avatars are checked and makes it the repository's avatar. */
  async upload(loaded: LoadedRepo, image: string): Promise<void> {
    RepoAvatarService.requireAdmin(loaded);
    const bytes = decodeAvatarImage(image);
    const key = newRepoAvatarKey(bytes);
    await this.storage.write(key, bytes);
    let old: string | undefined;
    try {
      old = await this.setKey(loaded.repo.id, key);
    } catch (err) {
      await this.discard(key);
      throw err;
    }
    if (old) await this.discard(old);
  }

  /** Repository administrators: the repository has no avatar any more (204 also when it had none). */
  async remove(loaded: LoadedRepo): Promise<void> {
    RepoAvatarService.requireAdmin(loaded);
    const old = await this.setKey(loaded.repo.id, '');
    if (old) await this.discard(old);
  }

  /** Sets the row's key; answers the one it replaced ('' for none). 404 when the repository went meanwhile. */
  private async setKey(repoId: number, key: string): Promise<string> {
    return withTx(this.deps.db, async (tx) => {
      const [row] = await tx.select({ avatar: repositories.avatar }).from(repositories).where(eq(repositories.id, repoId)).for('update');
      if (!row) throw new NotFound();
      await tx.update(repositories).set({ avatar: key }).where(eq(repositories.id, repoId));
      return row.avatar;
    });
  }

  /**
   * A copy of `template`'s avatar under a new key, for a repository generated from it: undefined when it
   * has none (or its file is gone). The caller puts the key in the new row, or discards it on failure.
   */
  async copyOf(template: RepoRow): Promise<string | undefined> {
    if (!template.avatar || !isRepoAvatarKey(template.avatar)) return undefined;
    const bytes = await this.storage.read(template.avatar);
    if (!bytes) return undefined;
    const key = newRepoAvatarKey(bytes);
    await this.storage.write(key, bytes);
    return key;
  }

  /** Removes a picture no row names any more; a failure is logged and the file left (nothing serves it). */
  async discard(key: string): Promise<void> {
    if (!isRepoAvatarKey(key)) return;
    try {
      await this.storage.remove(key);
    } catch (err) {
      this.deps.log.warn({ err, key }, 'could not remove a repository avatar no repository uses');
    }
  }

  /** The picture behind a repository's `avatar_url` (public, as in Gitea: the key is unguessable); undefined for none. */
  async image(key: string): Promise<AvatarImage | undefined> {
    if (!isRepoAvatarKey(key)) return undefined;
    const bytes = await this.storage.read(key);
    const type = bytes && sniffImageType(bytes);
    if (!bytes || !type) return undefined;
    return { bytes, type, etag: `"${key.slice(0, 27)}"` };
  }
}
