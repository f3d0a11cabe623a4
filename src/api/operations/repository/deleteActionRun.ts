import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const deleteActionRun: Handler<'deleteActionRun'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.repoActions.deleteRun(loaded, req.path.run);
  return { status: 204 };
};
