import { actorOf } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentTrackedTimes } from '../../../present/issues.js';
import { instant } from '../../queryDates.js';
import type { Handler } from '../../types.js';

export const userCurrentTrackedTimes: Handler<'userCurrentTrackedTimes'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const filter = { since: instant('since', req.query.since), before: instant('before', req.query.before) };
  const { rows, total, reach } = await req.services.times.listMine(actorOf(req), filter, page);
  return { status: 200, body: await presentTrackedTimes(req, rows, (id) => reach.get(id)!), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
