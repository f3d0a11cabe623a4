import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const cancelWorkflowRun: Handler<'cancelWorkflowRun'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.repoActions.cancel(loaded, req.path.run);
  return { status: 202 };
};
