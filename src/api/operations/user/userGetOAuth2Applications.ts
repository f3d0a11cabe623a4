import { toOAuth2Application } from '../../../convert/oauthApp.js';
import { actorOf } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userGetOAuth2Applications: Handler<'userGetOAuth2Applications'> = async (req) => {
  const me = actorOf(req);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.oauthApps.list(me.id, page);
  return { status: 200, body: rows.map((r) => toOAuth2Application(r)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
