import { repoRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const createRepoVariable: Handler<'createRepoVariable'> = async (req) => {
  await req.services.actionSettings.createVariable(await repoRunnerScope(req, req.path), req.path.variablename, req.body.value, req.body.description);
  return { status: 201 };
};
