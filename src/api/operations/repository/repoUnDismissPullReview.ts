import { actorOf, loadRepo } from '../../load.js';
import { presentReviews } from '../../../present/pulls.js';
import type { Handler } from '../../types.js';

export const repoUnDismissPullReview: Handler<'repoUnDismissPullReview'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { view, review } = await req.services.reviews.undismiss(loaded, req.path.index, req.path.id, actor);
  return { status: 200, body: (await presentReviews(req, loaded, view, [review]))[0]! };
};
