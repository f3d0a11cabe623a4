import { loadOrg } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentFeed } from '../../../present/feeds.js';
import type { Handler } from '../../types.js';

export const orgListActivityFeeds: Handler<'orgListActivityFeeds'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.feeds.list(req.auth.actor, { kind: 'org', orgId: org.id }, { date: req.query.date }, page);
  return { status: 200, body: await presentFeed(req, rows, () => org.id), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
