import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const rerunFailedWorkflowRun: Handler<'rerunFailedWorkflowRun'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.repoActions.rerunFailed(loaded, req.path.run);
  return { status: 201 };
};
