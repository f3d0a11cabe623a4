import { actorOf, loadRepo } from '../../load.js';
import { presentPull } from '../../../present/pulls.js';
import type { Handler } from '../../types.js';

export const repoEditPullRequest: Handler<'repoEditPullRequest'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const assigneesGiven = !!b.assignee || b.assignees != null;
  const edited = await req.services.pulls.edit(loaded, req.path.index, actor, {
    title: b.title ?? undefined,
    body: b.body ?? undefined,
    contentVersion: b.content_version ?? undefined,
    assignees: assigneesGiven ? [...(b.assignee ? [b.assignee] : []), ...(b.assignees ?? [])] : undefined,
    milestoneId: b.milestone ?? undefined,
    labelIds: b.labels ?? undefined,
    state: b.state ?? undefined,
    dueDate: b.due_date ?? undefined,
    unsetDueDate: b.unset_due_date ?? undefined,
    base: b.base ?? undefined,
    allowMaintainerEdit: b.allow_maintainer_edit ?? undefined,
  });
  // Gitea answers 201 here, and clients expect it.
  return { status: 201, body: await presentPull(req, loaded, edited) };
};
