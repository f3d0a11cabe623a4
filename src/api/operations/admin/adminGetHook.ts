import { toHook } from '../../../convert/hook.js';
import { adminHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const adminGetHook: Handler<'adminGetHook'> = async (req) => {
  const scope = await adminHookScope();
  return { status: 200, body: toHook(await req.services.hooks.get(scope, req.path.id)) };
};
