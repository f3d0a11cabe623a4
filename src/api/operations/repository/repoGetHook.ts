import { toHook } from '../../../convert/hook.js';
import { repoHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const repoGetHook: Handler<'repoGetHook'> = async (req) => {
  const scope = await repoHookScope(req, req.path);
  return { status: 200, body: toHook(await req.services.hooks.get(scope, req.path.id)) };
};
