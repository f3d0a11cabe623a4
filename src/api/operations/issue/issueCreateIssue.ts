import { actorOf, loadRepo } from '../../load.js';
import { presentIssue } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const issueCreateIssue: Handler<'issueCreateIssue'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const issue = await req.services.issues.create(loaded, actor, {
    title: b.title,
    body: b.body ?? undefined,
    assignees: [...(b.assignee ? [b.assignee] : []), ...(b.assignees ?? [])],
    milestoneId: b.milestone ?? undefined,
    labelIds: b.labels ?? undefined,
    closed: b.closed ?? undefined,
    dueDate: b.due_date ?? undefined,
    ref: b.ref ?? undefined,
  });
  return { status: 201, body: await presentIssue(req, loaded, issue) };
};
