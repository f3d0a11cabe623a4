import { toActionVariable } from '../../../convert/actionSettings.js';
import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const getUserVariable: Handler<'getUserVariable'> = async (req) => {
  return { status: 200, body: toActionVariable(await req.services.actionSettings.variable(userScope(req), req.path.variablename)) };
};
