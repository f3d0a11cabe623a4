import { repoRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const repoGetRunnerRegistrationToken: Handler<'repoGetRunnerRegistrationToken'> = async (req) => {
  return { status: 200, body: { token: await req.services.runners.registrationToken(await repoRunnerScope(req, req.path)) } };
};
