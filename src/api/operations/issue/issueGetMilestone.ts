import { toMilestone } from '../../../convert/milestone.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueGetMilestone: Handler<'issueGetMilestone'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: toMilestone(await req.services.milestones.resolve(loaded, req.path.id)) };
};
