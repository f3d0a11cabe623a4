import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueLockIssue: Handler<'issueLockIssue'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.issueThreads.setLocked(loaded, req.path.index, actor, true, req.body.lock_reason ?? '');
  return { status: 204 };
};
