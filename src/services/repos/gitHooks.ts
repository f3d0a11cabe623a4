// Server-side git hooks of a repository (Gitea's GitHook API). Gitea serves them to site administrators who
// administer the repository, and only with git hooks enabled (DISABLE_GIT_HOOKS=false; true by default).
// anvil runs no custom git hooks (its own pre-receive and reference-transaction hooks are not the
// repository's), so it answers as Gitea does with them disabled: 403 for everyone who gets that far.
import { isRepoAdmin } from '../../permissions/repo.js';
import { Forbidden } from '../errors.js';
import type { LoadedRepo } from './loadedRepo.js';

/** The refusal every git-hook operation ends in: repository administrators first (Gitea's reqAdmin), then reqGitHook. */
export function refuseGitHooks(loaded: LoadedRepo): never {
  if (!isRepoAdmin(loaded.perm)) throw new Forbidden('user should be an owner or a collaborator with admin write of a repository');
  throw new Forbidden('must be allowed to edit Git hooks');
}
