import { toActionRunner } from '../../../convert/actions.js';
import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const getUserRunner: Handler<'getUserRunner'> = async (req) => {
  return { status: 200, body: toActionRunner(await req.services.runners.get(req.path.runner_id, userScope(req))) };
};
