import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const updateUserVariable: Handler<'updateUserVariable'> = async (req) => {
  await req.services.actionSettings.updateVariable(userScope(req), req.path.variablename, req.body);
  return { status: 204 };
};
