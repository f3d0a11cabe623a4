import { loadAccount, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoAddCollaborator: Handler<'repoAddCollaborator'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  // Any account: naming an organization is a 422 of the service, not a 404.
  const user = await loadAccount(req, req.path.collaborator);
  await req.services.collaborators.put(loaded, user, req.body?.permission ?? 'write');
  return { status: 204 };
};
