import { toHook } from '../../../convert/hook.js';
import { repoHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const repoCreateHook: Handler<'repoCreateHook'> = async (req) => {
  const scope = await repoHookScope(req, req.path);
  return { status: 201, body: toHook(await req.services.hooks.create(scope, req.body)) };
};
