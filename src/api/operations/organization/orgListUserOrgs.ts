import { toOrganization } from '../../../convert/org.js';
import { loadUser } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const orgListUserOrgs: Handler<'orgListUserOrgs'> = async (req) => {
  const user = await loadUser(req, req.path.username);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.members.listOrgsOf(user, req.auth.actor, page);
  return {
    status: 200,
    body: rows.map((o) => toOrganization(o, req.auth.actor, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
