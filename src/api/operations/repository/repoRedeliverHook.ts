import { toHookDelivery } from '../../../convert/hook.js';
import { repoHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const repoRedeliverHook: Handler<'repoRedeliverHook'> = async (req) => {
  const scope = await repoHookScope(req, req.path);
  return { status: 202, body: toHookDelivery(await req.services.hooks.redeliver(scope, req.path.id, req.path.delivery_id)) };
};
