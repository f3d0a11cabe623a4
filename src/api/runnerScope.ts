// Whose runners an operation reaches, and whether the caller may manage them: repository admins for a
// repository's, organisation owners for an organisation's (site admins for both).
import { Forbidden } from '../services/errors.js';
import { requireRepoHookAdmin } from '../services/events/hooks.js';
import type { RunnerScope } from '../services/actions/runners.js';
import type { Services } from '../services/index.js';
import type { Auth } from './auth.js';
import { loadOrg, loadRepo } from './load.js';

type Req = { services: Services; auth: Auth };

export async function repoRunnerScope(req: Req, path: { owner: string; repo: string }): Promise<RunnerScope> {
  const loaded = await loadRepo(req, path.owner, path.repo);
  requireRepoHookAdmin(loaded);
  return { ownerId: 0, repoId: loaded.repo.id };
}

export async function orgRunnerScope(req: Req, path: { org: string }): Promise<RunnerScope> {
  const { org, viewer } = await loadOrg(req, path.org);
  if (!viewer.isOwner && !req.auth.actor?.isAdmin) throw new Forbidden('Must be an organization owner');
  return { ownerId: org.id, repoId: 0 };
}

/** The signed-in user's own runners, secrets and variables (operations under `/user/actions`). */
export function userScope(req: Req): RunnerScope {
  if (!req.auth.actor) throw new Forbidden('token is required');
  return { ownerId: req.auth.actor.id, repoId: 0 };
}
