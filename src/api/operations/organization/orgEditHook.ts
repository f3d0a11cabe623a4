import { toHook } from '../../../convert/hook.js';
import { orgHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const orgEditHook: Handler<'orgEditHook'> = async (req) => {
  const scope = await orgHookScope(req, req.path);
  return { status: 200, body: toHook(await req.services.hooks.edit(scope, req.path.id, req.body)) };
};
