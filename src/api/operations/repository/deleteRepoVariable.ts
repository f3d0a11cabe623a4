import { repoRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const deleteRepoVariable: Handler<'deleteRepoVariable'> = async (req) => {
  await req.services.actionSettings.deleteVariable(await repoRunnerScope(req, req.path), req.path.variablename);
  return { status: 204 };
};
