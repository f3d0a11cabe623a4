import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentDeleteStar: Handler<'userCurrentDeleteStar'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.stars.unstar(loaded, actorOf(req));
  return { status: 204 };
};
