import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeletePullReview: Handler<'repoDeletePullReview'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.reviews.delete(loaded, req.path.index, req.path.id, actor);
  return { status: 204 };
};
