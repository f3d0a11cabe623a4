import { actorOf, loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentTrackedTimes } from '../../../present/issues.js';
import { instant } from '../../queryDates.js';
import type { Handler } from '../../types.js';

export const issueTrackedTimes: Handler<'issueTrackedTimes'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  const page = pageOf(req.query, req.config);
  const filter = { user: req.query.user, since: instant('since', req.query.since), before: instant('before', req.query.before) };
  const { rows, total } = await req.services.times.listForIssue(loaded, issue, actorOf(req), filter, page);
  return { status: 200, body: await presentTrackedTimes(req, rows, () => loaded), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
