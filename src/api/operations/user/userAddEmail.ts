import { toEmail } from '../../../convert/email.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userAddEmail: Handler<'userAddEmail'> = async (req) => {
  const emails = await req.services.emails.add(actorOf(req), req.body?.emails ?? []);
  return { status: 201, body: emails.map(toEmail) };
};
