import { toUser } from '../../../convert/user.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userSearch: Handler<'userSearch'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const viewer = req.auth.actor ?? null;
  const { rows, total } = await req.services.userAdmin.publicSearch(viewer, { q: req.query.q, uid: req.query.uid }, page);
  return { status: 200, body: { ok: true, data: rows.map((u) => toUser(u, viewer, req.config)) }, headers: pageHeaders(req.config, req.koa.url, page, total) };
};
