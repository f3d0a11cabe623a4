// Whose webhooks an operation reaches, and whether the caller may manage them: repository admins for a
// repository's, organisation owners for an organisation's (site admins for both), site admins for the site's.
import { Forbidden } from '../services/errors.js';
import type { HookScope } from '../services/events/hooks.js';
import { requireRepoHookAdmin } from '../services/events/hooks.js';
import type { Services } from '../services/index.js';
import type { Auth } from './auth.js';
import { actorOf, loadOrg, loadRepo } from './load.js';

type Req = { services: Services; auth: Auth };

export async function repoHookScope(req: Req, path: { owner: string; repo: string }): Promise<HookScope> {
  const loaded = await loadRepo(req, path.owner, path.repo);
  requireRepoHookAdmin(loaded);
  return { kind: 'repo', repoId: loaded.repo.id };
}

export async function orgHookScope(req: Req, path: { org: string }): Promise<HookScope> {
  const { org, viewer } = await loadOrg(req, path.org);
  if (!viewer.isOwner && !req.auth.actor?.isAdmin) throw new Forbidden('Must be an organization owner');
  return { kind: 'org', orgId: org.id };
}

/** The signed-in user's own hooks (`/user/hooks`): stored and fired as an organization's, for the repositories they own. */
export const userHookScope = async (req: Req): Promise<HookScope> => ({ kind: 'org', orgId: actorOf(req).id });

/** The access rule of /admin already made the caller a site admin. */
export const adminHookScope = async (): Promise<HookScope> => ({ kind: 'admin' });
