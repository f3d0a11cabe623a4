import { toHook } from '../../../convert/hook.js';
import { userHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const userGetHook: Handler<'userGetHook'> = async (req) => {
  const scope = await userHookScope(req);
  return { status: 200, body: toHook(await req.services.hooks.get(scope, req.path.id)) };
};
