import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const ActionsDispatchWorkflow: Handler<'ActionsDispatchWorkflow'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.repoActions.dispatch(loaded, actorOf(req), req.path.workflow_id, req.body.ref, req.body.inputs ?? {});
  return { status: 204 };
};
