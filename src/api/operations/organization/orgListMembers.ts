import { toUser } from '../../../convert/user.js';
import { loadOrg } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const orgListMembers: Handler<'orgListMembers'> = async (req) => {
  const { org, viewer } = await loadOrg(req, req.path.org);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.orgs.listMembers(org, viewer, page);
  return {
    status: 200,
    body: rows.map((u) => toUser(u, req.auth.actor, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
