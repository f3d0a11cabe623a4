import { presentRepoList } from '../../../present/repos.js';
import { actorOf } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userCurrentListSubscriptions: Handler<'userCurrentListSubscriptions'> = async (req) => {
  const actor = actorOf(req);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.watches.watched(actor, actor, page);
  return { status: 200, body: await presentRepoList(req, rows), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
