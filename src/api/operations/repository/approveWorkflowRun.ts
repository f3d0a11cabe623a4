import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const approveWorkflowRun: Handler<'approveWorkflowRun'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.repoActions.approve(loaded, actorOf(req), req.path.run);
  return { status: 204 };
};
