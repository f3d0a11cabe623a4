// Who may see an organization, its members and its teams.
import type { UserRow, Visibility } from '../db/schema/index.js';

export interface OrgViewer {
  user: UserRow | null;
  isMember: boolean;
  isOwner: boolean;
}

/** public: everyone; limited: signed-in users who are not restricted; private: members (and admins). */
export function canSeeOwner(visibility: Visibility, v: OrgViewer): boolean {
  if (v.user?.isAdmin || v.isMember) return true;
  if (visibility === 'public') return true;
  return visibility === 'limited' && !!v.user && !v.user.isRestricted;
}

/** Team visibility: private teams to their members and org owners, limited to org members, public to signed-in users. */
export function canSeeTeam(team: { visibility: Visibility }, v: OrgViewer & { inTeam: boolean }): boolean {
  if (v.user?.isAdmin || v.isOwner || v.inTeam) return true;
  if (team.visibility === 'limited') return v.isMember;
  if (team.visibility === 'public') return !!v.user;
  return false;
}
