import { repoUrls } from '../../../convert/repo.js';
import { toWikiPage } from '../../../convert/wiki.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoEditWikiPage: Handler<'repoEditWikiPage'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  // The segment as sent, as repoGetWikiPage reads it.
  const rawName = req.koa.path.replace(/\/+$/, '').split('/').pop();
  const b = req.body;
  const page = await req.services.wiki.editPage(loaded, actor, req.path.pageName, { title: b.title, contentBase64: b.content_base64, message: b.message }, rawName);
  return { status: 200, body: toWikiPage(page, repoUrls(req.config, loaded.owner.name, loaded.repo.name).html) };
};
