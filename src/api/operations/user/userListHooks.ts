import { toHook } from '../../../convert/hook.js';
import { userHookScope } from '../../hookScope.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userListHooks: Handler<'userListHooks'> = async (req) => {
  const scope = await userHookScope(req);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.hooks.list(scope, page);
  return { status: 200, body: rows.map(toHook), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
