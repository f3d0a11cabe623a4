import { iso } from '../../../convert/time.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const topicSearch: Handler<'topicSearch'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.topics.search(req.auth.actor, req.query.q ?? '', page);
  return {
    status: 200,
    body: { topics: rows.map((t) => ({ id: t.id, topic_name: t.name, repo_count: t.repoCount, created: iso(t.created), updated: iso(t.updated) })) },
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
