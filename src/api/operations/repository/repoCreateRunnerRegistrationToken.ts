import { repoRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const repoCreateRunnerRegistrationToken: Handler<'repoCreateRunnerRegistrationToken'> = async (req) => {
  return { status: 200, body: { token: await req.services.runners.registrationToken(await repoRunnerScope(req, req.path)) } };
};
