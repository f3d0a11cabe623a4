import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const userCreateRunnerRegistrationToken: Handler<'userCreateRunnerRegistrationToken'> = async (req) => {
  return { status: 200, body: { token: await req.services.runners.registrationToken(userScope(req)) } };
};
