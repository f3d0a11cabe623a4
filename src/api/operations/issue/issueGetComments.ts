import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentComments } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const issueGetComments: Handler<'issueGetComments'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.comments.list(issue, { since: req.query.since, before: req.query.before }, page);
  return { status: 200, body: await presentComments(req, loaded, issue, rows), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
