import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userDeleteEmail: Handler<'userDeleteEmail'> = async (req) => {
  await req.services.emails.delete(actorOf(req), req.body?.emails ?? []);
  return { status: 204 };
};
