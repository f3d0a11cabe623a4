import { loadRepo, loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteCollaborator: Handler<'repoDeleteCollaborator'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const user = await loadUser(req, req.path.collaborator);
  await req.services.collaborators.remove(loaded, user);
  return { status: 204 };
};
