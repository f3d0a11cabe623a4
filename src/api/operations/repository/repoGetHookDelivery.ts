import { toHookDeliveryDetail } from '../../../convert/hook.js';
import { repoHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const repoGetHookDelivery: Handler<'repoGetHookDelivery'> = async (req) => {
  const scope = await repoHookScope(req, req.path);
  const { delivery, attempts } = await req.services.hooks.delivery(scope, req.path.id, req.path.delivery_id);
  return { status: 200, body: toHookDeliveryDetail(delivery, attempts) };
};
