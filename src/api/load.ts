// Resolve path parameters to domain objects, answering 404 for what the caller may not see.
import type { UserRow } from '../db/schema/index.js';
import { canManageUser, canSeeUser } from '../permissions/users.js';
import { Forbidden, NotFound } from '../services/errors.js';
import type { Auth } from './auth.js';
import type { Services } from '../services/index.js';

export async function loadUser(req: { services: Services; auth: Auth }, username: string): Promise<UserRow> {
  const user = await req.services.users.byName(username);
  if (!user || user.type === 'Organization' || !canSeeUser(req.auth.actor, user)) throw new NotFound();
  return user;
}

/** The signed-in caller; operations without anonymous access never reach a handler without one. */
export function actorOf(req: { auth: Auth }): UserRow {
  if (!req.auth.actor) throw new Error('operation reached without a signed-in caller');
  return req.auth.actor;
}

/** The user named in the path, if the caller is that user or a site administrator (Gitea's reqSelfOrAdmin). */
export async function loadSelfOrAdmin(req: { services: Services; auth: Auth }, username: string): Promise<UserRow> {
  const user = await loadUser(req, username);
  if (!canManageUser(req.auth.actor, user)) throw new Forbidden('doer should be the site admin or the user itself');
  return user;
}
