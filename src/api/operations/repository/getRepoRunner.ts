import { toActionRunner } from '../../../convert/actions.js';
import { repoRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const getRepoRunner: Handler<'getRepoRunner'> = async (req) => {
  const scope = await repoRunnerScope(req, req.path);
  return { status: 200, body: toActionRunner(await req.services.runners.get(req.path.runner_id, scope)) };
};
