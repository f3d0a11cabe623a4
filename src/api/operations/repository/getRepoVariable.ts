import { toActionVariable } from '../../../convert/actionSettings.js';
import { repoRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const getRepoVariable: Handler<'getRepoVariable'> = async (req) => {
  return { status: 200, body: toActionVariable(await req.services.actionSettings.variable(await repoRunnerScope(req, req.path), req.path.variablename)) };
};
