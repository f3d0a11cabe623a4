import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentRepoComments } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const issueGetRepoComments: Handler<'issueGetRepoComments'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.issueThreads.repoComments(loaded, { since: req.query.since, before: req.query.before }, page);
  return { status: 200, body: await presentRepoComments(req, loaded, rows), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
