import { loadUser } from '../../load.js';
import type { Handler } from '../../types.js';

export const adminDeleteUserBadges: Handler<'adminDeleteUserBadges'> = async (req) => {
  const user = await loadUser(req, req.path.username);
  await req.services.badges.remove(user, req.body.badge_slugs ?? []);
  return { status: 204 };
};
