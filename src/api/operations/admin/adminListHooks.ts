import { toHook } from '../../../convert/hook.js';
import { adminHookScope } from '../../hookScope.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const adminListHooks: Handler<'adminListHooks'> = async (req) => {
  const scope = await adminHookScope();
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.hooks.list(scope, page, req.query.type ?? 'system');
  return { status: 200, body: rows.map(toHook), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
