import { toReaction } from '../../../convert/reaction.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issuePostCommentReaction: Handler<'issuePostCommentReaction'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const target = await req.services.reactions.commentTarget(loaded, req.path.id);
  const { view, created } = await req.services.reactions.add(loaded, target, actor, req.body.content);
  return { status: created ? 201 : 200, body: toReaction(view, actor, req.config) };
};
