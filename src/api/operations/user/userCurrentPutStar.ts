import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentPutStar: Handler<'userCurrentPutStar'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.stars.star(loaded, actorOf(req));
  return { status: 204 };
};
