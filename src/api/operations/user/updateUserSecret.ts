import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const updateUserSecret: Handler<'updateUserSecret'> = async (req) => {
  const scope = userScope(req);
  const { created } = await req.services.actionSettings.putSecret(scope, req.path.secretname, req.body.data, req.body.description);
  return created ? { status: 201 } : { status: 204 };
};
