import type { Handler } from '../../types.js';

export const adminCreateRunnerRegistrationToken: Handler<'adminCreateRunnerRegistrationToken'> = async (req) => {
  return { status: 200, body: { token: await req.services.runners.registrationToken() } };
};
