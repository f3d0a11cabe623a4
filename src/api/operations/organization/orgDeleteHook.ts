import { orgHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const orgDeleteHook: Handler<'orgDeleteHook'> = async (req) => {
  const scope = await orgHookScope(req, req.path);
  await req.services.hooks.delete(scope, req.path.id);
  return { status: 204 };
};
