import { tokenAllows } from '../../auth.js';
import { loadOrg } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentFeed } from '../../../present/feeds.js';
import { privateActivityShown } from '../../../services/events/feeds.js';
import type { Handler } from '../../types.js';

export const orgListActivityFeeds: Handler<'orgListActivityFeeds'> = async (req) => {
  const { org, viewer } = await loadOrg(req, req.path.org);
  const page = pageOf(req.query, req.config);
  const includePrivate = privateActivityShown(req.auth.actor, viewer.isMember, tokenAllows(req.auth, 'repository'));
  const { rows, total } = await req.services.feeds.list(req.auth.actor, { kind: 'org', orgId: org.id }, { date: req.query.date, includePrivate }, page);
  return { status: 200, body: await presentFeed(req, rows, () => org.id), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
