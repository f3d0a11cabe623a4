import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

/** Gitea's deprecated alias of issueDeleteComment: `{index}` is ignored, as in Gitea 1.26. */
export const issueDeleteCommentDeprecated: Handler<'issueDeleteCommentDeprecated'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.comments.delete(loaded, req.path.id, actor);
  return { status: 204 };
};
