import { toUser } from '../../../convert/user.js';
import { actorOf } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const adminSearchUsers: Handler<'adminSearchUsers'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.userAdmin.search({ q: req.query.q, sourceId: req.query.source_id, loginName: req.query.login_name }, page);
  const me = actorOf(req);
  return { status: 200, body: rows.map((u) => toUser(u, me, req.config)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
