import { presentRepoList } from '../../../present/repos.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const listForks: Handler<'listForks'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.forks.list(loaded, req.auth.actor, page);
  return { status: 200, body: await presentRepoList(req, rows), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
