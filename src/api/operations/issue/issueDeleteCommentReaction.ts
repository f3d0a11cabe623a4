import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueDeleteCommentReaction: Handler<'issueDeleteCommentReaction'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const target = await req.services.reactions.commentTarget(loaded, req.path.id);
  await req.services.reactions.remove(loaded, target, actor, req.body.content);
  return { status: 200 };
};
