import { toOrganization } from '../../../convert/org.js';
import { actorOf } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const orgListCurrentUserOrgs: Handler<'orgListCurrentUserOrgs'> = async (req) => {
  const actor = actorOf(req);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.members.listOrgsOf(actor, actor, page);
  return {
    status: 200,
    body: rows.map((o) => toOrganization(o, actor, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
