import { actorOf, loadRepo } from '../../load.js';
import { presentIssue } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const issueEditIssue: Handler<'issueEditIssue'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  const b = req.body;
  const assigneesGiven = b.assignee != null || b.assignees != null;
  const edited = await req.services.issues.edit(loaded, issue, actor, {
    title: b.title ?? undefined,
    body: b.body ?? undefined,
    assignees: assigneesGiven ? [...(b.assignee ? [b.assignee] : []), ...(b.assignees ?? [])] : undefined,
    milestoneId: b.milestone ?? undefined,
    state: b.state ?? undefined,
    dueDate: b.due_date ?? undefined,
    unsetDueDate: b.unset_due_date ?? undefined,
    ref: b.ref ?? undefined,
  });
  return { status: 201, body: await presentIssue(req, loaded, edited) };
};
