import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueStartStopWatch: Handler<'issueStartStopWatch'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  await req.services.stopwatches.start(loaded, issue, actorOf(req));
  return { status: 201 };
};
