// The issue a dependency body (Gitea's IssueMeta) names: its repository, loaded with the caller's
// permission (the path's own when owner and repo are left out or name it), and its number.
import type { LoadedRepo } from '../services/repos/loadedRepo.js';
import { loadRepo } from './load.js';
import type { Auth } from '../permissions/caller.js';
import type { Services } from '../services/index.js';

export async function issueOfMeta(
  req: { services: Services; auth: Auth }, path: LoadedRepo, meta: { index: number; owner?: string; repo?: string },
): Promise<{ loaded: LoadedRepo; index: number }> {
  const owner = meta.owner || path.owner.name;
  const repo = meta.repo || path.repo.name;
  const same = owner.toLowerCase() === path.owner.name.toLowerCase() && repo.toLowerCase() === path.repo.name.toLowerCase();
  return { loaded: same ? path : await loadRepo(req, owner, repo), index: meta.index };
}
