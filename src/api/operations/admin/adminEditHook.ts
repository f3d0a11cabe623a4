import { toHook } from '../../../convert/hook.js';
import { adminHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const adminEditHook: Handler<'adminEditHook'> = async (req) => {
  const scope = await adminHookScope();
  return { status: 200, body: toHook(await req.services.hooks.edit(scope, req.path.id, req.body)) };
};
