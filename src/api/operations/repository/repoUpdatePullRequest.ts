import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoUpdatePullRequest: Handler<'repoUpdatePullRequest'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.pullChanges.update(loaded, req.path.index, actor, req.query.style ?? 'merge');
  return { status: 200 };
};
