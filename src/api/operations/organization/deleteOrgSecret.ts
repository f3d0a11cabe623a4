import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const deleteOrgSecret: Handler<'deleteOrgSecret'> = async (req) => {
  await req.services.actionSettings.deleteSecret(await orgRunnerScope(req, req.path), req.path.secretname);
  return { status: 204 };
};
