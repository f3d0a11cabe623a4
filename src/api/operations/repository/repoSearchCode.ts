import { toCodeSearchHit } from '../../../convert/codeSearch.js';
import { canRead } from '../../../permissions/repo.js';
import { NotFound } from '../../../services/errors.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoSearchCode: Handler<'repoSearchCode'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
  const page = pageOf(req.query, req.config);
  const q = req.query;
  const [{ hits, total }, indexed] = await Promise.all([
    req.services.codeSearch.search(req.auth.actor, { q: q.q, path: q.path, language: q.language }, page, loaded),
    req.services.codeSearch.indexedCommit(loaded.repo.id),
  ]);
  return {
    status: 200,
    body: { total_count: total, indexed_commit: indexed, items: hits.map((h) => toCodeSearchHit(req.config, h)) },
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
