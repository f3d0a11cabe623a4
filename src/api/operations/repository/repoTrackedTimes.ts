import { actorOf, loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentTrackedTimes } from '../../../present/issues.js';
import { instant } from '../../queryDates.js';
import type { Handler } from '../../types.js';

export const repoTrackedTimes: Handler<'repoTrackedTimes'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const filter = { user: req.query.user, since: instant('since', req.query.since), before: instant('before', req.query.before) };
  const { rows, total } = await req.services.times.listForRepo(loaded, actorOf(req), filter, page);
  return { status: 200, body: await presentTrackedTimes(req, rows, () => loaded), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
