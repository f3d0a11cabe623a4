// Repository lists with their forks' parents, read for the whole page at once (no per-item query).
import type { components } from '../../generated/openapi.js';
import { toRepository } from '../convert/repo.js';
import type { RepoListRow } from '../services/repos/repos.js';
import type { Auth } from '../permissions/caller.js';
import type { Config } from '../config.js';
import type { Services } from '../services/index.js';

export async function presentRepoList(
  req: { services: Services; auth: Auth; config: Config }, rows: RepoListRow[],
): Promise<Array<components['schemas']['Repository']>> {
  const repos = rows.map((r) => r.repo);
  const [parents, mirrors] = await Promise.all([req.services.forks.parentsOf(repos, req.auth.actor), req.services.mirrors.viewsOf(repos)]);
  return rows.map(({ repo, owner, perm }) =>
    toRepository(repo, owner, perm, req.auth.actor, req.config, null, repo.forkId == null ? null : parents.get(repo.forkId), mirrors.get(repo.id)));
}
