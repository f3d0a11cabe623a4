import { toUser } from '../../../convert/user.js';
import { loadOrg } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const orgListPublicMembers: Handler<'orgListPublicMembers'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.members.listPublic(org, page);
  return {
    status: 200,
    body: rows.map((u) => toUser(u, req.auth.actor, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
