import { loadAccount } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentFeed } from '../../../present/feeds.js';
import type { Handler } from '../../types.js';

export const userListActivityFeeds: Handler<'userListActivityFeeds'> = async (req) => {
  const user = await loadAccount(req, req.path.username);
  const page = pageOf(req.query, req.config);
  const scope = { kind: 'user' as const, userId: user.id, onlyPerformedBy: req.query['only-performed-by'] === true };
  const { rows, total } = await req.services.feeds.list(req.auth.actor, scope, { date: req.query.date }, page);
  return { status: 200, body: await presentFeed(req, rows, () => user.id), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
