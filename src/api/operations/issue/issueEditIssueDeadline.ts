import { toIssueDeadline } from '../../../convert/issue.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueEditIssueDeadline: Handler<'issueEditIssueDeadline'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issueThreads.setDeadline(loaded, req.path.index, actor, req.body.due_date);
  return { status: 201, body: toIssueDeadline(issue) };
};
