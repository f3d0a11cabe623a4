import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteWikiPage: Handler<'repoDeleteWikiPage'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const rawName = req.koa.path.replace(/\/+$/, '').split('/').pop();
  await req.services.wiki.deletePage(loaded, actor, req.path.pageName, rawName);
  return { status: 204 };
};
