import { repoUrls } from '../../../convert/repo.js';
import { toWikiPage } from '../../../convert/wiki.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoCreateWikiPage: Handler<'repoCreateWikiPage'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const page = await req.services.wiki.createPage(loaded, actor, { title: b.title, contentBase64: b.content_base64, message: b.message });
  return { status: 201, body: toWikiPage(page, repoUrls(req.config, loaded.owner.name, loaded.repo.name).html) };
};
