import { actorOf, loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentTrackedTimes } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const userTrackedTimes: Handler<'userTrackedTimes'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.times.listForUserInRepo(loaded, actorOf(req), req.path.user, page);
  return { status: 200, body: await presentTrackedTimes(req, rows, () => loaded), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
