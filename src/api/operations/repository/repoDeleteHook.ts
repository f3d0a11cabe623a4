import { repoHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const repoDeleteHook: Handler<'repoDeleteHook'> = async (req) => {
  const scope = await repoHookScope(req, req.path);
  await req.services.hooks.delete(scope, req.path.id);
  return { status: 204 };
};
