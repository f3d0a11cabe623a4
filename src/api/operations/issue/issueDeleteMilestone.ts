import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueDeleteMilestone: Handler<'issueDeleteMilestone'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.milestones.delete(loaded, req.path.id);
  return { status: 204 };
};
