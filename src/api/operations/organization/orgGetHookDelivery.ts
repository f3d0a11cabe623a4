import { toHookDeliveryDetail } from '../../../convert/hook.js';
import { orgHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const orgGetHookDelivery: Handler<'orgGetHookDelivery'> = async (req) => {
  const scope = await orgHookScope(req, req.path);
  const { delivery, attempts } = await req.services.hooks.delivery(scope, req.path.id, req.path.delivery_id);
  return { status: 200, body: toHookDeliveryDetail(delivery, attempts) };
};
