import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeletePullReviewRequests: Handler<'repoDeletePullReviewRequests'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.reviews.unrequest(loaded, req.path.index, actor, { users: req.body.reviewers ?? [], teams: req.body.team_reviewers ?? [] });
  return { status: 204 };
};
