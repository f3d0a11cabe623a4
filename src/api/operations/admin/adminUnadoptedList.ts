import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

/** `pattern` as documented; `query` is what Gitea's handler reads, taken when `pattern` is absent. */
export const adminUnadoptedList: Handler<'adminUnadoptedList'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const { names, total } = await req.services.unadopted.list(req.query.pattern ?? req.query.query ?? '', page);
  return { status: 200, body: names, headers: pageHeaders(req.config, req.koa.url, page, total) };
};
