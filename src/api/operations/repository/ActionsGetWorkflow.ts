import { toActionWorkflow } from '../../../convert/actions.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const ActionsGetWorkflow: Handler<'ActionsGetWorkflow'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: toActionWorkflow(await req.services.repoActions.workflow(loaded, req.path.workflow_id), loaded.owner.name, loaded.repo.name, req.config) };
};
