import { toMilestone } from '../../../convert/milestone.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueEditMilestone: Handler<'issueEditMilestone'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const m = await req.services.milestones.edit(loaded, req.path.id, {
    title: b.title ?? undefined,
    description: b.description ?? undefined,
    dueOn: b.due_on ?? undefined,
    state: b.state ?? undefined,
  });
  return { status: 200, body: toMilestone(m) };
};
