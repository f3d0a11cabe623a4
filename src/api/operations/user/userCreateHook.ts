import { toHook } from '../../../convert/hook.js';
import { userHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const userCreateHook: Handler<'userCreateHook'> = async (req) => {
  const scope = await userHookScope(req);
  return { status: 201, body: toHook(await req.services.hooks.create(scope, req.body)) };
};
