import { toActionRunner } from '../../../convert/actions.js';
import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const updateOrgRunner: Handler<'updateOrgRunner'> = async (req) => {
  const scope = await orgRunnerScope(req, req.path);
  return { status: 200, body: toActionRunner(await req.services.runners.setDisabled(req.path.runner_id, req.body.disabled, scope)) };
};
