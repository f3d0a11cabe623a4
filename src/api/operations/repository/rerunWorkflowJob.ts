import { toWorkflowJob } from '../../../convert/actions.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const rerunWorkflowJob: Handler<'rerunWorkflowJob'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 201, body: toWorkflowJob(await req.services.repoActions.rerunJob(loaded, req.path.run, req.path.job_id), req.config) };
};
