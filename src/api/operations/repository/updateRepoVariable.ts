import { repoRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const updateRepoVariable: Handler<'updateRepoVariable'> = async (req) => {
  await req.services.actionSettings.updateVariable(await repoRunnerScope(req, req.path), req.path.variablename, req.body);
  return { status: 204 };
};
