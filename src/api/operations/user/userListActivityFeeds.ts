import { tokenAllows } from '../../auth.js';
import { loadAccount } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentFeed } from '../../../present/feeds.js';
import { privateActivityShown } from '../../../services/events/feeds.js';
import type { Handler } from '../../types.js';

export const userListActivityFeeds: Handler<'userListActivityFeeds'> = async (req) => {
  const user = await loadAccount(req, req.path.username);
  const page = pageOf(req.query, req.config);
  const scope = { kind: 'user' as const, userId: user.id, onlyPerformedBy: req.query['only-performed-by'] === true };
  const actor = req.auth.actor;
  const includePrivate = privateActivityShown(actor, actor?.id === user.id, tokenAllows(req.auth, 'repository'));
  const { rows, total } = await req.services.feeds.list(actor, scope, { date: req.query.date, includePrivate }, page);
  return { status: 200, body: await presentFeed(req, rows, () => user.id), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
