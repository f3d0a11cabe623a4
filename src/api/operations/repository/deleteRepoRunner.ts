import { repoRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const deleteRepoRunner: Handler<'deleteRepoRunner'> = async (req) => {
  await req.services.runners.delete(req.path.runner_id, await repoRunnerScope(req, req.path));
  return { status: 204 };
};
