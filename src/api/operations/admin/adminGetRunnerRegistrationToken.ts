import type { Handler } from '../../types.js';

export const adminGetRunnerRegistrationToken: Handler<'adminGetRunnerRegistrationToken'> = async (req) => {
  return { status: 200, body: { token: await req.services.runners.registrationToken() } };
};
