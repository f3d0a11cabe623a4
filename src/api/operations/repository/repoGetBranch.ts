import { canRead } from '../../../permissions/repo.js';
import { presentBranches } from '../../../present/branches.js';
import { NotFound } from '../../../services/errors.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetBranch: Handler<'repoGetBranch'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
  const b = await req.services.branches.get(loaded, req.path.branch);
  return { status: 200, body: (await presentBranches(req, loaded, [b]))[0]! };
};
