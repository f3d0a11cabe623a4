import { toUser } from '../../../convert/user.js';
import { loadAccount } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userListFollowing: Handler<'userListFollowing'> = async (req) => {
  const user = await loadAccount(req, req.path.username);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.follows.following(user, req.auth.actor, page);
  return { status: 200, body: rows.map((u) => toUser(u, req.auth.actor, req.config)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
