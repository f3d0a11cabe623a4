import { toActionRunner } from '../../../convert/actions.js';
import { repoRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const updateRepoRunner: Handler<'updateRepoRunner'> = async (req) => {
  const scope = await repoRunnerScope(req, req.path);
  return { status: 200, body: toActionRunner(await req.services.runners.setDisabled(req.path.runner_id, req.body.disabled, scope)) };
};
