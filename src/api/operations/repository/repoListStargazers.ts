import { toUser } from '../../../convert/user.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoListStargazers: Handler<'repoListStargazers'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.stars.stargazers(loaded, page);
  return {
    status: 200,
    body: rows.map((u) => toUser(u, req.auth.actor, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
