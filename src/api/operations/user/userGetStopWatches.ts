import { toStopWatch } from '../../../convert/trackedTime.js';
import { actorOf } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userGetStopWatches: Handler<'userGetStopWatches'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.stopwatches.list(actorOf(req), page);
  const now = new Date();
  const body = rows.map((r) => toStopWatch(r.stopwatch, r.issue, r.repo, r.owner, now));
  return { status: 200, body, headers: pageHeaders(req.config, req.koa.url, page, total) };
};
