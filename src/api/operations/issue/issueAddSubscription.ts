import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueAddSubscription: Handler<'issueAddSubscription'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  const changed = await req.services.watches.setIssueSubscription(loaded, issue, actorOf(req), req.path.user, true);
  return { status: changed ? 201 : 200 };
};
