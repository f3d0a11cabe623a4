import { toActionWorkflow } from '../../../convert/actions.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const ActionsListRepositoryWorkflows: Handler<'ActionsListRepositoryWorkflows'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const workflows = (await req.services.repoActions.workflows(loaded)).map((w) => toActionWorkflow(w, loaded.owner.name, loaded.repo.name, req.config));
  return { status: 200, body: { workflows, total_count: workflows.length } };
};
