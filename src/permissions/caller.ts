// Who is calling, as the API's authentication found it (api/auth.ts): below the presenters and the
// pages that judge what the caller may see by it.
import type { UserRow } from '../db/schema/index.js';

export interface Auth {
  /** The user the request acts as (after Sudo); null for anonymous callers. */
  actor: UserRow | null;
  /** How the caller proved who they are. */
  method: 'none' | 'password' | 'token';
  /** A token's scopes; undefined for password sign-in, which may do anything its user may. */
  scopes?: string[];
  /** The signed-in user before Sudo. */
  signedIn: UserRow | null;
  /**
   * A running Actions task's token (GITEA_TOKEN): the caller is `actionsUser`, with write access to the
   * task's own repository (read for a pull request from a fork) and what anonymous callers have elsewhere.
   */
  task?: { repoId: number; write: boolean };
}

/** Who an Actions task's token acts as (Gitea's gitea-actions user, id -2; no account row). */
export const actionsUser: UserRow = {
  id: -2, name: 'gitea-actions', lowerName: 'gitea-actions', type: 'User', fullName: '', email: 'teabot@gitea.io', keepEmailPrivate: false,
  passwordHash: '', mustChangePassword: false, loginSource: 0, loginName: '', location: '', website: '', description: '',
  language: '', theme: 'gitea-auto', diffViewStyle: '', keepActivityPrivate: false, visibility: 'public', isActive: true, isAdmin: false, isRestricted: false, prohibitLogin: false,
  allowCreateOrganization: false, allowGitHook: false, maxRepoCreation: 0, repoAdminChangeTeamAccess: false, numFollowers: 0, numFollowing: 0,
  numStars: 0, createdAt: new Date(0), updatedAt: new Date(0), lastLoginAt: null,
};

export const anonymous: Auth = { actor: null, method: 'none', signedIn: null };
