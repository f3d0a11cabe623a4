import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const orgCreateRunnerRegistrationToken: Handler<'orgCreateRunnerRegistrationToken'> = async (req) => {
  return { status: 200, body: { token: await req.services.runners.registrationToken(await orgRunnerScope(req, req.path)) } };
};
