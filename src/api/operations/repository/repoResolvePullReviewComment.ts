import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoResolvePullReviewComment: Handler<'repoResolvePullReviewComment'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.reviews.markConversation(loaded, req.path.id, actor, true);
  return { status: 204 };
};
