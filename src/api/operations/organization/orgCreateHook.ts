import { toHook } from '../../../convert/hook.js';
import { orgHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const orgCreateHook: Handler<'orgCreateHook'> = async (req) => {
  const scope = await orgHookScope(req, req.path);
  return { status: 201, body: toHook(await req.services.hooks.create(scope, req.body)) };
};
