import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const createUserVariable: Handler<'createUserVariable'> = async (req) => {
  await req.services.actionSettings.createVariable(userScope(req), req.path.variablename, req.body.value, req.body.description);
  return { status: 201 };
};
