import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const createOrgVariable: Handler<'createOrgVariable'> = async (req) => {
  await req.services.actionSettings.createVariable(await orgRunnerScope(req, req.path), req.path.variablename, req.body.value, req.body.description);
  return { status: 201 };
};
