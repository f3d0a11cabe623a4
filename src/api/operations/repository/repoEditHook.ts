import { toHook } from '../../../convert/hook.js';
import { repoHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const repoEditHook: Handler<'repoEditHook'> = async (req) => {
  const scope = await repoHookScope(req, req.path);
  return { status: 200, body: toHook(await req.services.hooks.edit(scope, req.path.id, req.body)) };
};
