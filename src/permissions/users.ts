// Who may see and manage a user account.
import type { UserRow } from '../db/schema/index.js';

/** Public users are visible to all, limited ones to signed-in callers, private ones to themselves and admins. */
export function canSeeUser(viewer: UserRow | null, user: UserRow): boolean {
  if (user.visibility === 'public') return true;
  if (!viewer) return false;
  if (viewer.isAdmin || viewer.id === user.id) return true;
  return user.visibility === 'limited' && !viewer.isRestricted;
}

/** The user themselves or a site administrator. */
export function canManageUser(viewer: UserRow | null, user: UserRow): boolean {
  return !!viewer && (viewer.isAdmin || viewer.id === user.id);
}
