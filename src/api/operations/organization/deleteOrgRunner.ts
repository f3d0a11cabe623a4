import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const deleteOrgRunner: Handler<'deleteOrgRunner'> = async (req) => {
  await req.services.runners.delete(req.path.runner_id, await orgRunnerScope(req, req.path));
  return { status: 204 };
};
