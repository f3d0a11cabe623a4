import { presentRepoList } from '../../../present/repos.js';
import { actorOf } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userCurrentListRepos: Handler<'userCurrentListRepos'> = async (req) => {
  const actor = actorOf(req);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.repos.listAccessible(actor, page);
  return {
    status: 200,
    body: await presentRepoList(req, rows),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
