import { toActionVariable } from '../../../convert/actionSettings.js';
import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const getOrgVariable: Handler<'getOrgVariable'> = async (req) => {
  return { status: 200, body: toActionVariable(await req.services.actionSettings.variable(await orgRunnerScope(req, req.path), req.path.variablename)) };
};
