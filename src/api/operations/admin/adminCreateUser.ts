import { toUser } from '../../../convert/user.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const adminCreateUser: Handler<'adminCreateUser'> = async (req) => {
  const b = req.body;
  const user = await req.services.users.create({
    username: b.username,
    email: b.email,
    password: b.password,
    fullName: b.full_name,
    loginName: b.login_name,
    mustChangePassword: b.must_change_password,
    restricted: b.restricted,
    visibility: b.visibility,
    sourceId: b.source_id,
    createdAt: b.created_at ? new Date(b.created_at) : undefined,
  });
  return { status: 201, body: toUser(user, actorOf(req), req.config) };
};
