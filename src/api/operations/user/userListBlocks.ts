import { toUser } from '../../../convert/user.js';
import { actorOf } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userListBlocks: Handler<'userListBlocks'> = async (req) => {
  const actor = actorOf(req);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.blocks.list(actor, page);
  return { status: 200, body: rows.map((u) => toUser(u, actor, req.config)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
