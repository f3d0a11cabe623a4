import { toOrganization } from '../../../convert/org.js';
import { actorOf } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const adminGetAllOrgs: Handler<'adminGetAllOrgs'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.userAdmin.orgs(page);
  const me = actorOf(req);
  return { status: 200, body: rows.map((o) => toOrganization(o, me, req.config)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
