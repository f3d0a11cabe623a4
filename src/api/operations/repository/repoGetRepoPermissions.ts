import { toCollaboratorPermission } from '../../../convert/collaborator.js';
import { actorOf, loadRepo, loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetRepoPermissions: Handler<'repoGetRepoPermissions'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const user = await loadUser(req, req.path.collaborator);
  const perm = await req.services.collaborators.permissionOf(loaded, actor, user);
  return { status: 200, body: toCollaboratorPermission(perm, user, actor, req.config) };
};
