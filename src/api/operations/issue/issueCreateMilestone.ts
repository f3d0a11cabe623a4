import { toMilestone } from '../../../convert/milestone.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueCreateMilestone: Handler<'issueCreateMilestone'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const m = await req.services.milestones.create(loaded, {
    title: b.title,
    description: b.description ?? undefined,
    dueOn: b.due_on ?? undefined,
    state: b.state ?? undefined,
  });
  return { status: 201, body: toMilestone(m) };
};
