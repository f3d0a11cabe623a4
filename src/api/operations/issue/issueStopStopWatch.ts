import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueStopStopWatch: Handler<'issueStopStopWatch'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  await req.services.stopwatches.stop(loaded, issue, actorOf(req));
  return { status: 201 };
};
