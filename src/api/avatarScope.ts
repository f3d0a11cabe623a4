// Whose avatar an organization operation changes: organization owners and site admins only (403 for
// other members, 404 for an organization the caller may not see).
import type { UserRow } from '../db/schema/index.js';
import { Forbidden } from '../services/errors.js';
import type { Services } from '../services/index.js';
import type { Auth } from './auth.js';
import { loadOrg } from './load.js';

export async function orgForAvatar(req: { services: Services; auth: Auth }, name: string): Promise<UserRow> {
  const { org, viewer } = await loadOrg(req, name);
  if (!viewer.isOwner && !req.auth.actor?.isAdmin) throw new Forbidden('Must be an organization owner');
  return org;
}
