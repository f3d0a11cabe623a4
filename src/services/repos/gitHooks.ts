// Server-side git hooks of a repository (Gitea's GitHook API, #38): the pre-receive, update and post-receive
// scripts its administrators write, which pushes then run on the server (git/customHooks.ts keeps the files,
// git/preReceive.ts runs them). As in Gitea, only callers who administer the repository (Gitea's reqAdmin)
// and may edit git hooks (reqGitHook: the site enables them with DISABLE_GIT_HOOKS=false, and the caller is a
// site administrator or was given `allow_git_hook`). With hooks disabled, the default, every caller is
// refused and nothing is read or written.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isCustomHookName, readCustomHook, readCustomHooks, writeCustomHook, type CustomHook } from '../../git/customHooks.js';
import { repoDir } from '../../git/paths.js';
import type { UserRow } from '../../db/schema/index.js';
import { isRepoAdmin } from '../../permissions/repo.js';
import type { ServiceDeps } from '../context.js';
import { Forbidden, NotFound } from '../errors.js';
import type { LoadedRepo } from './loadedRepo.js';

export class GitHookService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Whether `user` may write git hooks at all (Gitea's CanEditGitHook). */
  canEdit(user: UserRow): boolean {
    return !this.deps.config.disableGitHooks && (user.isAdmin || user.allowGitHook);
  }

  list(loaded: LoadedRepo, actor: UserRow): CustomHook[] {
    return readCustomHooks(this.dir(this.allowed(loaded, actor)));
  }

  get(loaded: LoadedRepo, actor: UserRow, name: string): CustomHook {
    return readCustomHook(this.dir(this.allowed(loaded, actor)), this.named(name));
  }

  /** Writes the hook's script; empty or white-space content removes it, as in Gitea. */
  edit(loaded: LoadedRepo, actor: UserRow, name: string, content: string): CustomHook {
    return writeCustomHook(this.dir(this.allowed(loaded, actor)), this.named(name), content);
  }

  delete(loaded: LoadedRepo, actor: UserRow, name: string): void {
    writeCustomHook(this.dir(this.allowed(loaded, actor)), this.named(name), '');
  }

  private allowed(loaded: LoadedRepo, actor: UserRow): LoadedRepo {
    if (!isRepoAdmin(loaded.perm)) throw new Forbidden('user should be an owner or a collaborator with admin write of a repository');
    if (!this.canEdit(actor)) throw new Forbidden('must be allowed to edit Git hooks');
    return loaded;
  }

  private named(name: string) {
    if (!isCustomHookName(name)) throw new NotFound('not a valid Git hook');
    return name;
  }

  private dir(loaded: LoadedRepo): string {
    const dir = repoDir(this.deps.config.dataDir, loaded.owner.name, loaded.repo.name);
    if (!existsSync(join(dir, 'HEAD'))) throw new NotFound('repository folder not found');
    return dir;
  }
}
