import { toActionRunner } from '../../../convert/actions.js';
import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const getOrgRunner: Handler<'getOrgRunner'> = async (req) => {
  const scope = await orgRunnerScope(req, req.path);
  return { status: 200, body: toActionRunner(await req.services.runners.get(req.path.runner_id, scope)) };
};
