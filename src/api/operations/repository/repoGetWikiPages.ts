import { repoUrls } from '../../../convert/repo.js';
import { toWikiPageMeta } from '../../../convert/wiki.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoGetWikiPages: Handler<'repoGetWikiPages'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.wiki.listPages(loaded, page);
  const html = repoUrls(req.config, loaded.owner.name, loaded.repo.name).html;
  return { status: 200, body: rows.map((p) => toWikiPageMeta(p, html)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
