import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentFeed } from '../../../present/feeds.js';
import type { Handler } from '../../types.js';

export const repoListActivityFeeds: Handler<'repoListActivityFeeds'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  // Whoever may read the repository sees all of its feed (its private rows included, as in Gitea).
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.feeds.list(req.auth.actor, { kind: 'repo', repoId: loaded.repo.id }, { date: req.query.date, includePrivate: true }, page);
  return { status: 200, body: await presentFeed(req, rows, () => loaded.repo.ownerId), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
