import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueRemoveLabel: Handler<'issueRemoveLabel'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.issueLabels.remove(loaded, actorOf(req), req.path.index, req.path.id);
  return { status: 204 };
};
