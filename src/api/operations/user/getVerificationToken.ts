import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const getVerificationToken: Handler<'getVerificationToken'> = async (req) => {
  return { status: 200, body: req.services.gpgKeys.tokenFor(actorOf(req)), headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
};
