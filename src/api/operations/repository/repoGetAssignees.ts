import { toUser } from '../../../convert/user.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetAssignees: Handler<'repoGetAssignees'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const rows = await req.services.issueThreads.assignees(loaded);
  return { status: 200, body: rows.map((u) => toUser(u, req.auth.actor, req.config)) };
};
