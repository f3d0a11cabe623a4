import { actorOf, loadRepo } from '../../load.js';
import { presentReviews } from '../../../present/pulls.js';
import type { Handler } from '../../types.js';

export const repoCreatePullReviewRequests: Handler<'repoCreatePullReviewRequests'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { view, rows } = await req.services.reviews.request(loaded, req.path.index, actor, {
    users: req.body.reviewers ?? [],
    teams: req.body.team_reviewers ?? [],
  });
  return { status: 201, body: await presentReviews(req, loaded, view, rows) };
};
