import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueDeleteTime: Handler<'issueDeleteTime'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  await req.services.times.deleteOne(loaded, issue, actorOf(req), req.path.id);
  return { status: 204 };
};
