import { actorOf, loadRepo } from '../../load.js';
import { presentReviews } from '../../../present/pulls.js';
import type { Handler } from '../../types.js';

export const repoCreatePullReview: Handler<'repoCreatePullReview'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const { view, review } = await req.services.reviews.create(loaded, req.path.index, actor, {
    event: b.event ?? undefined,
    body: b.body ?? undefined,
    commitId: b.commit_id ?? undefined,
    comments: (b.comments ?? []).map((c) => ({ path: c.path, body: c.body, oldPosition: c.old_position ?? undefined, newPosition: c.new_position ?? undefined })),
  });
  // Gitea answers 200 here.
  return { status: 200, body: (await presentReviews(req, loaded, view, [review]))[0]! };
};
