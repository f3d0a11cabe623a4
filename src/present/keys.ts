// Deploy keys as the caller sees them: the repository only for site administrators and the repository's
// owner (Gitea's rule).
import { toDeployKey } from '../convert/key.js';
import { toRepository } from '../convert/repo.js';
import type { Config } from '../config.js';
import type { DeployKeyEntry } from '../services/keys/keys.js';
import type { LoadedRepo } from '../services/repos/repos.js';
import type { Auth } from '../permissions/caller.js';

export function presentDeployKey(req: { auth: Auth; config: Config }, loaded: LoadedRepo, e: DeployKeyEntry) {
  const actor = req.auth.actor;
  const shows = !!actor && (actor.isAdmin || actor.id === loaded.owner.id);
  const repository = shows ? toRepository(loaded.repo, loaded.owner, loaded.perm, actor, req.config) : undefined;
  return toDeployKey(e, loaded.owner, loaded.repo.name, req.config, repository);
}
