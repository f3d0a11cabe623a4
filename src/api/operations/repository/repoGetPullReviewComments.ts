import { toPullReviewComment } from '../../../convert/review.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetPullReviewComments: Handler<'repoGetPullReviewComments'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { view, rows } = await req.services.reviews.comments(loaded, req.path.index, req.path.id, req.auth.actor);
  const where = { owner: loaded.owner, repo: loaded.repo, issue: view.issue };
  return { status: 200, body: rows.map((r) => toPullReviewComment(r.comment, r.poster, where, req.auth.actor, req.config, r.resolver)) };
};
