import { NotFound } from '../../../services/errors.js';
import { loadAccount, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoCheckCollaborator: Handler<'repoCheckCollaborator'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const user = await loadAccount(req, req.path.collaborator);
  if (!(await req.services.collaborators.isCollaborator(loaded, user))) throw new NotFound();
  return { status: 204 };
};
