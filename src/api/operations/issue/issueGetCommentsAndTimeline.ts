import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentTimeline } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const issueGetCommentsAndTimeline: Handler<'issueGetCommentsAndTimeline'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.comments.list(issue, { since: req.query.since, before: req.query.before, events: true }, page);
  return { status: 200, body: await presentTimeline(req, loaded, issue, rows), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
