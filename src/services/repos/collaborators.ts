// Repository collaborators: who may add and remove them, and what a user's permission is.
import { and, asc, count, eq } from 'drizzle-orm';
import { collaborations, users, type AccessMode, type UserRow } from '../../db/schema/index.js';
import { isRepoAdmin, type RepoPermission } from '../../permissions/repo.js';
import type { AccessService } from './access.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, Invalid, NotFound, RepoArchived } from '../errors.js';
import type { LoadedRepo } from './loadedRepo.js';
import { refuseBlocked } from '../users/blocks.js';
import { withTx } from '../../db/tx.js';

export class CollaboratorService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
  ) {}

  private checkManage(loaded: LoadedRepo): void {
    if (!isRepoAdmin(loaded.perm)) throw new Forbidden('user should be an owner or a collaborator with admin write of a repository');
    if (loaded.repo.isArchived) throw new RepoArchived();
  }

  /** Adds or updates a collaborator (default write). The owner, organizations and inactive accounts cannot be one. */
  async put(loaded: LoadedRepo, user: UserRow, mode: AccessMode = 'write'): Promise<void> {
    this.checkManage(loaded);
    if (user.id === loaded.owner.id) throw new Invalid('the owner of a repository cannot be its collaborator');
    if (user.type === 'Organization') throw new Invalid('an organization cannot be a collaborator');
    if (!user.isActive || user.prohibitLogin) throw new Invalid('user account is inactive');
    await withTx(this.deps.db, async (tx) => {
      // Either of the two having blocked the other refuses (403); a block at the same time ends it.
      await refuseBlocked(tx, user.id, [loaded.owner.id], { lock: true, eitherWay: true });
      await tx
        .insert(collaborations)
        .values({ repoId: loaded.repo.id, userId: user.id, accessMode: mode })
        .onConflictDoUpdate({ target: [collaborations.repoId, collaborations.userId], set: { accessMode: mode } });
    });
  }

  async remove(loaded: LoadedRepo, user: UserRow): Promise<void> {
    this.checkManage(loaded);
    const gone = await this.deps.db
      .delete(collaborations)
      .where(and(eq(collaborations.repoId, loaded.repo.id), eq(collaborations.userId, user.id)))
      .returning({ userId: collaborations.userId });
    if (gone.length === 0) throw new NotFound();
  }

  /** Repository admins may ask about anyone; others only about themselves. */
  async permissionOf(loaded: LoadedRepo, actor: UserRow, user: UserRow): Promise<RepoPermission> {
    if (!isRepoAdmin(loaded.perm) && actor.id !== user.id) {
      throw new Forbidden('Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own');
    }
    return this.access.repoPermission(loaded.repo, loaded.owner, user);
  }

  /** The repository's collaborators, by name. */
  async list(loaded: LoadedRepo, page: { limit: number; offset: number }): Promise<{ rows: UserRow[]; total: number }> {
    const { db } = this.deps;
    const where = eq(collaborations.repoId, loaded.repo.id);
    const [rows, [total]] = await Promise.all([
      db.select({ user: users }).from(collaborations).innerJoin(users, eq(users.id, collaborations.userId)).where(where)
        .orderBy(asc(users.lowerName)).limit(page.limit).offset(page.offset),
      db.select({ n: count() }).from(collaborations).where(where),
    ]);
    return { rows: rows.map((r) => r.user), total: total?.n ?? 0 };
  }

  async isCollaborator(loaded: LoadedRepo, user: UserRow): Promise<boolean> {
    const [row] = await this.deps.db.select({ userId: collaborations.userId }).from(collaborations)
      .where(and(eq(collaborations.repoId, loaded.repo.id), eq(collaborations.userId, user.id)));
    return !!row;
  }
}
