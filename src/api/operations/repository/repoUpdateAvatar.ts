import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoUpdateAvatar: Handler<'repoUpdateAvatar'> = async (req) => {
  actorOf(req);
  await req.services.repoAvatars.upload(await loadRepo(req, req.path.owner, req.path.repo), req.body.image);
  return { status: 204 };
};
