import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const orgGetRunnerRegistrationToken: Handler<'orgGetRunnerRegistrationToken'> = async (req) => {
  return { status: 200, body: { token: await req.services.runners.registrationToken(await orgRunnerScope(req, req.path)) } };
};
