import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const updateOrgVariable: Handler<'updateOrgVariable'> = async (req) => {
  await req.services.actionSettings.updateVariable(await orgRunnerScope(req, req.path), req.path.variablename, req.body);
  return { status: 204 };
};
