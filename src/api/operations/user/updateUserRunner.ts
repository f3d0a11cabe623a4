import { toActionRunner } from '../../../convert/actions.js';
import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const updateUserRunner: Handler<'updateUserRunner'> = async (req) => {
  const scope = userScope(req);
  return { status: 200, body: toActionRunner(await req.services.runners.setDisabled(req.path.runner_id, req.body.disabled, scope)) };
};
