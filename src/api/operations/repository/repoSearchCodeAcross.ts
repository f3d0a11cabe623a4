import { toCodeSearchHit } from '../../../convert/codeSearch.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoSearchCodeAcross: Handler<'repoSearchCodeAcross'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const q = req.query;
  const { hits, total } = await req.services.codeSearch.search(req.auth.actor, { q: q.q, path: q.path, language: q.language }, page);
  return {
    status: 200,
    body: { total_count: total, items: hits.map((h) => toCodeSearchHit(req.config, h)) },
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
