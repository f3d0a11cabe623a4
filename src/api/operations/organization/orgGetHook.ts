import { toHook } from '../../../convert/hook.js';
import { orgHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const orgGetHook: Handler<'orgGetHook'> = async (req) => {
  const scope = await orgHookScope(req, req.path);
  return { status: 200, body: toHook(await req.services.hooks.get(scope, req.path.id)) };
};
