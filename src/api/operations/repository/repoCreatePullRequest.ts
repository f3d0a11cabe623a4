import { actorOf, loadRepo } from '../../load.js';
import { presentPull } from '../../../present/pulls.js';
import type { Handler } from '../../types.js';

export const repoCreatePullRequest: Handler<'repoCreatePullRequest'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const made = await req.services.pulls.create(loaded, actor, {
    head: b.head,
    base: b.base,
    title: b.title,
    body: b.body ?? undefined,
    assignees: [...(b.assignee ? [b.assignee] : []), ...(b.assignees ?? [])],
    milestoneId: b.milestone ?? undefined,
    labelIds: b.labels ?? undefined,
    dueDate: b.due_date ?? undefined,
  });
  return { status: 201, body: await presentPull(req, loaded, made) };
};
