import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const deleteUserSecret: Handler<'deleteUserSecret'> = async (req) => {
  await req.services.actionSettings.deleteSecret(userScope(req), req.path.secretname);
  return { status: 204 };
};
