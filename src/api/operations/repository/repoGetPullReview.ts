import { loadRepo } from '../../load.js';
import { presentReviews } from '../../../present/pulls.js';
import type { Handler } from '../../types.js';

export const repoGetPullReview: Handler<'repoGetPullReview'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { view, review } = await req.services.reviews.get(loaded, req.path.index, req.path.id, req.auth.actor);
  return { status: 200, body: (await presentReviews(req, loaded, view, [review]))[0]! };
};
