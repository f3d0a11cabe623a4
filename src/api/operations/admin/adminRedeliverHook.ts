import { toHookDelivery } from '../../../convert/hook.js';
import { adminHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const adminRedeliverHook: Handler<'adminRedeliverHook'> = async (req) => {
  const scope = await adminHookScope();
  return { status: 202, body: toHookDelivery(await req.services.hooks.redeliver(scope, req.path.id, req.path.delivery_id)) };
};
