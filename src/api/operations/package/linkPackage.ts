import { canWrite } from '../../../permissions/repo.js';
import { Forbidden, NotFound } from '../../../services/errors.js';
import { loadPackage, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const linkPackage: Handler<'linkPackage'> = async (req) => {
  const { owner, pkg } = await loadPackage(req, req.path, 'write');
  const loaded = await loadRepo(req, owner.name, req.path.repo_name).catch((err) => {
    throw err instanceof NotFound ? new NotFound('repository does not exist') : err;
  });
  if (!canWrite(loaded.perm, 'repo.packages')) throw new Forbidden('no permission to link this package and repository');
  await req.services.packages.link(pkg, loaded.repo);
  return { status: 201 };
};
