import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const userGetRunnerRegistrationToken: Handler<'userGetRunnerRegistrationToken'> = async (req) => {
  return { status: 200, body: { token: await req.services.runners.registrationToken(userScope(req)) } };
};
