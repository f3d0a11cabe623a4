import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentReviews } from '../../../present/pulls.js';
import type { Handler } from '../../types.js';

export const repoListPullReviews: Handler<'repoListPullReviews'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total, view } = await req.services.reviews.list(loaded, req.path.index, req.auth.actor, page);
  return { status: 200, body: await presentReviews(req, loaded, view, rows), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
