import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueUnlockIssue: Handler<'issueUnlockIssue'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.issueThreads.setLocked(loaded, req.path.index, actor, false);
  return { status: 204 };
};
