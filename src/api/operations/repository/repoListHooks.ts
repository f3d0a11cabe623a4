import { toHook } from '../../../convert/hook.js';
import { repoHookScope } from '../../hookScope.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoListHooks: Handler<'repoListHooks'> = async (req) => {
  const scope = await repoHookScope(req, req.path);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.hooks.list(scope, page);
  return { status: 200, body: rows.map(toHook), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
