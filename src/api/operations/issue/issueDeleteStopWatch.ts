import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueDeleteStopWatch: Handler<'issueDeleteStopWatch'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  await req.services.stopwatches.cancel(loaded, issue, actorOf(req));
  return { status: 204 };
};
