import { toReaction } from '../../../convert/reaction.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueGetCommentReactions: Handler<'issueGetCommentReactions'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const rows = await req.services.reactions.listForComment(loaded, req.path.id);
  return { status: 200, body: rows.map((r) => toReaction(r, req.auth.actor, req.config)) };
};
