import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentPulls } from '../../../present/pulls.js';
import type { Handler } from '../../types.js';

export const repoListPullRequests: Handler<'repoListPullRequests'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const q = req.query;
  const page = pageOf(q, req.config);
  const { rows, details, total } = await req.services.pulls.list(
    loaded,
    // A single `labels=` may arrive as a scalar.
    { state: q.state ?? 'open', sort: q.sort, milestone: q.milestone, labels: q.labels === undefined ? undefined : ([] as number[]).concat(q.labels), poster: q.poster },
    page,
  );
  return { status: 200, body: await presentPulls(req, loaded, rows, undefined, details), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
