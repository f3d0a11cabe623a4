import { toEmail } from '../../../convert/email.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userListEmails: Handler<'userListEmails'> = async (req) => {
  const emails = await req.services.emails.ofUser(actorOf(req));
  return { status: 200, body: emails.map(toEmail) };
};
