import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueClearLabels: Handler<'issueClearLabels'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.issueLabels.clear(loaded, actorOf(req), req.path.index);
  return { status: 204 };
};
