import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const deleteUserRunner: Handler<'deleteUserRunner'> = async (req) => {
  await req.services.runners.delete(req.path.runner_id, userScope(req));
  return { status: 204 };
};
