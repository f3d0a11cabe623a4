import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const updateOrgSecret: Handler<'updateOrgSecret'> = async (req) => {
  const scope = await orgRunnerScope(req, req.path);
  const { created } = await req.services.actionSettings.putSecret(scope, req.path.secretname, req.body.data, req.body.description);
  return created ? { status: 201 } : { status: 204 };
};
