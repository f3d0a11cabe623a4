import { toHookDelivery } from '../../../convert/hook.js';
import { orgHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const orgRedeliverHook: Handler<'orgRedeliverHook'> = async (req) => {
  const scope = await orgHookScope(req, req.path);
  return { status: 202, body: toHookDelivery(await req.services.hooks.redeliver(scope, req.path.id, req.path.delivery_id)) };
};
