import type { UserRow } from '../db/schema/index.js';

/** Who a deleted account's issues and comments are shown as (Gitea's Ghost, id -1). */
export const ghost: UserRow = {
  id: -1, name: 'Ghost', lowerName: 'ghost', type: 'User', fullName: '', email: '', keepEmailPrivate: true,
  passwordHash: '', mustChangePassword: false, loginSource: 0, loginName: '', location: '', website: '', description: '',
  language: '', theme: 'gitea-auto', diffViewStyle: '', keepActivityPrivate: false, visibility: 'public', isActive: false, isAdmin: false, isRestricted: false, prohibitLogin: true,
  allowCreateOrganization: false, allowGitHook: false, maxRepoCreation: 0, repoAdminChangeTeamAccess: false, numFollowers: 0, numFollowing: 0,
  numStars: 0, createdAt: new Date(0), updatedAt: new Date(0), lastLoginAt: null,
};
