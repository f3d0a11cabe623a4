import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueDeleteIssueReaction: Handler<'issueDeleteIssueReaction'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const target = await req.services.reactions.issueTarget(loaded, req.path.index);
  await req.services.reactions.remove(loaded, target, actor, req.body.content);
  return { status: 200 };
};
