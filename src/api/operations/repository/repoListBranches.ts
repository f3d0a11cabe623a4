import { canRead } from '../../../permissions/repo.js';
import { presentBranches } from '../../../present/branches.js';
import { NotFound } from '../../../services/errors.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoListBranches: Handler<'repoListBranches'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.branches.list(loaded, page);
  return {
    status: 200,
    body: await presentBranches(req, loaded, rows),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
