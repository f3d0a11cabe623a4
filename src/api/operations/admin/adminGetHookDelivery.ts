import { toHookDeliveryDetail } from '../../../convert/hook.js';
import { adminHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const adminGetHookDelivery: Handler<'adminGetHookDelivery'> = async (req) => {
  const scope = await adminHookScope();
  const { delivery, attempts } = await req.services.hooks.delivery(scope, req.path.id, req.path.delivery_id);
  return { status: 200, body: toHookDeliveryDetail(delivery, attempts) };
};
