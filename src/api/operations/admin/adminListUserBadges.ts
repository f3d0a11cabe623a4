import { toBadge } from '../../../convert/badge.js';
import { loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const adminListUserBadges: Handler<'adminListUserBadges'> = async (req) => {
  const user = await loadUser(req, req.path.username);
  const { rows, total } = await req.services.badges.listFor(user);
  return { status: 200, body: rows.map(toBadge), headers: { 'X-Total-Count': String(total) } };
};
