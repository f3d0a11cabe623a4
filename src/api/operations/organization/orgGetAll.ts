import { toOrganization } from '../../../convert/org.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const orgGetAll: Handler<'orgGetAll'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.orgLookups.listAll(req.auth.actor, page);
  return {
    status: 200,
    body: rows.map((o) => toOrganization(o, req.auth.actor, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
