import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const deleteOrgVariable: Handler<'deleteOrgVariable'> = async (req) => {
  await req.services.actionSettings.deleteVariable(await orgRunnerScope(req, req.path), req.path.variablename);
  return { status: 204 };
};
