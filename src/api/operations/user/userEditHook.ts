import { toHook } from '../../../convert/hook.js';
import { userHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const userEditHook: Handler<'userEditHook'> = async (req) => {
  const scope = await userHookScope(req);
  return { status: 200, body: toHook(await req.services.hooks.edit(scope, req.path.id, req.body)) };
};
