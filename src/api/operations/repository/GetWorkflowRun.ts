import { toWorkflowRun } from '../../../convert/actions.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const GetWorkflowRun: Handler<'GetWorkflowRun'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: toWorkflowRun(await req.services.repoActions.run(loaded, req.path.run), req.auth.actor, req.config) };
};
