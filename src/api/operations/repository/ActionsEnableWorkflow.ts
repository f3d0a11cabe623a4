import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const ActionsEnableWorkflow: Handler<'ActionsEnableWorkflow'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.repoActions.setWorkflowEnabled(loaded, req.path.workflow_id, true);
  return { status: 204 };
};
