import { toWorkflowJob } from '../../../convert/actions.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const getWorkflowJob: Handler<'getWorkflowJob'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: toWorkflowJob(await req.services.repoActions.job(loaded, req.path.job_id), req.config) };
};
