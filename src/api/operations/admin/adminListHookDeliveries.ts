import { toHookDelivery } from '../../../convert/hook.js';
import { adminHookScope } from '../../hookScope.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const adminListHookDeliveries: Handler<'adminListHookDeliveries'> = async (req) => {
  const scope = await adminHookScope();
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.hooks.deliveries(scope, req.path.id, page);
  return { status: 200, body: rows.map(toHookDelivery), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
