import { actorOf, loadRepo } from '../../load.js';
import { presentComments } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

/** Gitea's deprecated alias of issueEditComment: `{index}` is ignored, as in Gitea 1.26. */
export const issueEditCommentDeprecated: Handler<'issueEditCommentDeprecated'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const edited = await req.services.comments.edit(loaded, req.path.id, actor, req.body.body);
  if (!edited) return { status: 204 };
  const { issue } = await req.services.comments.load(loaded, edited.id);
  return { status: 200, body: (await presentComments(req, loaded, issue, [edited]))[0]! };
};
