import { adminHookScope } from '../../hookScope.js';
import type { Handler } from '../../types.js';

export const adminDeleteHook: Handler<'adminDeleteHook'> = async (req) => {
  const scope = await adminHookScope();
  await req.services.hooks.delete(scope, req.path.id);
  return { status: 204 };
};
