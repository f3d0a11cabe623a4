import { presentRepoList } from '../../../present/repos.js';
import { loadUser } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userListSubscriptions: Handler<'userListSubscriptions'> = async (req) => {
  const user = await loadUser(req, req.path.username);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.watches.watched(user, req.auth.actor, page);
  return { status: 200, body: await presentRepoList(req, rows), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
