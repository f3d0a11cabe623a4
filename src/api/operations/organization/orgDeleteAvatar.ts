import { orgForAvatar } from '../../avatarScope.js';
import type { Handler } from '../../types.js';

export const orgDeleteAvatar: Handler<'orgDeleteAvatar'> = async (req) => {
  await req.services.avatars.remove(await orgForAvatar(req, req.path.org));
  return { status: 204 };
};
