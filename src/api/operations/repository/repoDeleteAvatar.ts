import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteAvatar: Handler<'repoDeleteAvatar'> = async (req) => {
  actorOf(req);
  await req.services.repoAvatars.remove(await loadRepo(req, req.path.owner, req.path.repo));
  return { status: 204 };
};
