import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const ActionsDisableWorkflow: Handler<'ActionsDisableWorkflow'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.repoActions.setWorkflowEnabled(loaded, req.path.workflow_id, false);
  return { status: 204 };
};
