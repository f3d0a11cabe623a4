import { toHookDelivery } from '../../../convert/hook.js';
import { orgHookScope } from '../../hookScope.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const orgListHookDeliveries: Handler<'orgListHookDeliveries'> = async (req) => {
  const scope = await orgHookScope(req, req.path);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.hooks.deliveries(scope, req.path.id, page);
  return { status: 200, body: rows.map(toHookDelivery), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
