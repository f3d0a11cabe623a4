import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { UserRow } from '../db/schema/index.js';
import type { RepoPermission } from '../permissions/repo.js';
import { toUser } from './user.js';

type ApiCollaboratorPermission = components['schemas']['RepoCollaboratorPermission'];

export function toCollaboratorPermission(perm: RepoPermission, user: UserRow, viewer: UserRow, config: Config): ApiCollaboratorPermission {
  return { permission: perm.mode, role_name: perm.mode, user: toUser(user, viewer, config) };
}
