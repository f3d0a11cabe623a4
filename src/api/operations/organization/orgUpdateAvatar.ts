import { orgForAvatar } from '../../avatarScope.js';
import type { Handler } from '../../types.js';

export const orgUpdateAvatar: Handler<'orgUpdateAvatar'> = async (req) => {
  await req.services.avatars.upload(await orgForAvatar(req, req.path.org), req.body.image);
  return { status: 204 };
};
