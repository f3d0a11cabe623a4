import { toUser } from '../../../convert/user.js';
import { actorOf, loadOwnedOrg } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const organizationListBlocks: Handler<'organizationListBlocks'> = async (req) => {
  const { org } = await loadOwnedOrg(req, req.path.org);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.blocks.list(org, page);
  return { status: 200, body: rows.map((u) => toUser(u, actorOf(req), req.config)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
