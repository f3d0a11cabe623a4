import { userHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const userDeleteHook: Handler<'userDeleteHook'> = async (req) => {
  const scope = await userHookScope(req);
  await req.services.hooks.delete(scope, req.path.id);
  return { status: 204 };
};
