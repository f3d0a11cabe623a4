import { toHook } from '../../../convert/hook.js';
import { adminHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const adminCreateHook: Handler<'adminCreateHook'> = async (req) => {
  const scope = await adminHookScope();
  return { status: 201, body: toHook(await req.services.hooks.create(scope, req.body)) };
};
