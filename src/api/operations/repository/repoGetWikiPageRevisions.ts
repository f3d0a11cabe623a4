import { toWikiCommit } from '../../../convert/wiki.js';
import { loadRepo } from '../../load.js';
import { pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoGetWikiPageRevisions: Handler<'repoGetWikiPageRevisions'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const rawName = req.koa.path.replace(/\/+$/, '').split('/').pop();
  const { commits, count } = await req.services.wiki.revisions(loaded, req.path.pageName, pageOf(req.query, req.config), rawName);
  return { status: 200, body: { commits: commits.map(toWikiCommit), count }, headers: { 'X-Total-Count': String(count) } };
};
