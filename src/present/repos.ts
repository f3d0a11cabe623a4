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
  const parents = await req.services.forks.parentsOf(rows.map((r) => r.repo), req.auth.actor);
  return rows.map(({ repo, owner, perm }) =>
    toRepository(repo, owner, perm, req.auth.actor, req.config, null, repo.forkId == null ? null : parents.get(repo.forkId)));
}
