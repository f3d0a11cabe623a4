import { toPushMirror } from '../../../convert/pushMirror.js';
import { actorOf, loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoListPushMirrors: Handler<'repoListPushMirrors'> = async (req) => {
  actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.pushMirrors.list(loaded, page);
  return { status: 200, body: rows.map((m) => toPushMirror(m, loaded.repo.name)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
