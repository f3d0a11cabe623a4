import { loadRepo, loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoAddCollaborator: Handler<'repoAddCollaborator'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const user = await loadUser(req, req.path.collaborator);
  await req.services.collaborators.put(loaded, user, req.body?.permission ?? 'write');
  return { status: 204 };
};
