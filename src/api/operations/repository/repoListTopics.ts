import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoListTopics: Handler<'repoListTopics'> = async (req) => {
  const { repo } = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  return {
    status: 200,
    body: { topics: repo.topics.slice(page.offset, page.offset + page.limit) },
    headers: pageHeaders(req.config, req.koa.url, page, repo.topics.length),
  };
};
