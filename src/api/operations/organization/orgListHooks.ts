import { toHook } from '../../../convert/hook.js';
import { orgHookScope } from '../../hookScope.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const orgListHooks: Handler<'orgListHooks'> = async (req) => {
  const scope = await orgHookScope(req, req.path);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.hooks.list(scope, page);
  return { status: 200, body: rows.map(toHook), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
