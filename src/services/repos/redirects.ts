// The old names of renamed and transferred repositories and renamed accounts (Gitea's repo_redirect and
// user_redirect, models/repo/redirect.go and models/user/redirect.go). A rename or transfer writes its
// redirect in its own transaction; a repository or account taking a name removes that name's redirect
// (database triggers, migration 0046), so a redirect never hides a real object and a rename back leaves
// no stale row; redirects point at ids, so a chain of renames resolves to the current name.
//
// Unlike Gitea, which redirects before it checks permissions (and so tells anyone the new name of a
// private repository), a redirect is followed only for a caller who may see its target: to anyone else the
// old name stays what a missing one is (404).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { repoRedirects, repositories, userRedirects, users, type UserRow } from '../../db/schema/index.js';
import { canSeeRepo } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import type { AccessService } from './access.js';

/** Records that `oldName` under `ownerId` now means repository `repoId` (inside the rename's or transfer's transaction). */
export async function recordRepoRedirect(tx: Db, ownerId: number, oldName: string, repoId: number): Promise<void> {
  await tx
    .insert(repoRedirects)
    .values({ ownerId, lowerName: oldName.toLowerCase(), repoId })
    .onConflictDoUpdate({ target: [repoRedirects.ownerId, repoRedirects.lowerName], set: { repoId } });
}

/** Records that the account name `oldName` now means account `userId` (inside the rename's transaction). */
export async function recordUserRedirect(tx: Db, oldName: string, userId: number): Promise<void> {
  await tx
    .insert(userRedirects)
    .values({ lowerName: oldName.toLowerCase(), userId })
    .onConflictDoUpdate({ target: userRedirects.lowerName, set: { userId } });
}

/** Names that can be a repository's or an account's (Gitea's alphanumeric, dash, underscore, dot), so nothing else is looked up. */
const PLAIN_NAME = /^[\w.-]{1,255}$/;

/** Who asks: a signed-in user (or anonymous), or an Actions task's token, which reaches its own repository. */
export interface RedirectCaller {
  actor: UserRow | null;
  task?: { repoId: number } | null;
}

export class RedirectService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
  ) {}

  /**
   * The current owner and name of the repository once called `ownerName/repoName`, when no repository has
   * that name now and the caller may see the one it became; undefined otherwise. The owner part may be a
   * renamed account's old name, as in Gitea (the account's redirect, then the repository's under it).
   */
  async repo(ownerName: string, repoName: string, caller: RedirectCaller): Promise<{ owner: string; name: string } | undefined> {
    const repoId = await this.repoIdOf(ownerName, repoName);
    if (repoId === undefined) return undefined;
    const ownTask = caller.task?.repoId === repoId;
    const found = (await this.access.reposById([repoId], caller.task ? null : caller.actor)).get(repoId);
    if (!found || !(ownTask || canSeeRepo(found.perm))) return undefined;
    return { owner: found.owner.name, name: found.repo.name };
  }

  /**
   * The current owner and name of the repository once called `ownerName/repoName`, whoever asks: only for
   * callers that then open it with their own access checks and never tell the name (git over SSH, which
   * follows a redirect silently, as Gitea's `serv`).
   */
  async resolveRepo(ownerName: string, repoName: string): Promise<{ owner: string; name: string } | undefined> {
    const repoId = await this.repoIdOf(ownerName, repoName);
    if (repoId === undefined) return undefined;
    const found = (await this.access.reposById([repoId], null)).get(repoId);
    return found && { owner: found.owner.name, name: found.repo.name };
  }

  /** The repository an old `ownerName/repoName` leads to, when those names are not a repository's today. */
  private async repoIdOf(ownerName: string, repoName: string): Promise<number | undefined> {
    if (!PLAIN_NAME.test(ownerName) || !PLAIN_NAME.test(repoName)) return undefined;
    const owner = ownerName.toLowerCase();
    const name = repoName.toLowerCase();
    const db = this.deps.db;
    const [account] = await db.select({ id: users.id }).from(users).where(eq(users.lowerName, owner));
    const ownerId = account?.id ?? (await db.select({ id: userRedirects.userId }).from(userRedirects).where(eq(userRedirects.lowerName, owner)))[0]?.id;
    if (ownerId === undefined) return undefined;
    const [current] = await db.select({ id: repositories.id }).from(repositories).where(and(eq(repositories.ownerId, ownerId), eq(repositories.lowerName, name)));
    // The names are a repository's today: the answer was about something else.
    if (current && account) return undefined;
    return (
      current?.id ?? (await db.select({ id: repoRedirects.repoId }).from(repoRedirects).where(and(eq(repoRedirects.ownerId, ownerId), eq(repoRedirects.lowerName, name))))[0]?.id
    );
  }

  /** The current name of the account once called `name`, when no account has it now and the caller may see it. */
  async user(name: string, actor: UserRow | null): Promise<UserRow | undefined> {
    if (!PLAIN_NAME.test(name)) return undefined;
    const [row] = await this.deps.db
      .select({ userId: userRedirects.userId })
      .from(userRedirects)
      .where(eq(userRedirects.lowerName, name.toLowerCase()));
    if (!row) return undefined;
    const [user] = await this.deps.db.select().from(users).where(eq(users.id, row.userId));
    if (!user || user.lowerName === name.toLowerCase() || !(await this.access.canSeeOwner(user, actor))) return undefined;
    return user;
  }
}
