import { toTopic } from '../../../convert/topic.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const topicSearch: Handler<'topicSearch'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.topics.search(req.auth.actor, req.query.q ?? '', page);
  return {
    status: 200,
    body: { topics: rows.map(toTopic) },
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
