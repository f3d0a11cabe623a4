import { repoUrls } from '../../../convert/repo.js';
import { toWikiPage } from '../../../convert/wiki.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetWikiPage: Handler<'repoGetWikiPage'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  // koa-router hands over the decoded name; Gitea reads the segment as sent, which keeps `+` and `%2B` apart.
  const rawName = req.koa.path.replace(/\/+$/, '').split('/').pop();
  const page = await req.services.wiki.getPage(loaded, req.path.pageName, rawName);
  return { status: 200, body: toWikiPage(page, repoUrls(req.config, loaded.owner.name, loaded.repo.name).html) };
};
