import { repoRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const deleteRepoSecret: Handler<'deleteRepoSecret'> = async (req) => {
  await req.services.actionSettings.deleteSecret(await repoRunnerScope(req, req.path), req.path.secretname);
  return { status: 204 };
};
