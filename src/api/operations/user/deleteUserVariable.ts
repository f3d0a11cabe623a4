import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const deleteUserVariable: Handler<'deleteUserVariable'> = async (req) => {
  await req.services.actionSettings.deleteVariable(userScope(req), req.path.variablename);
  return { status: 204 };
};
