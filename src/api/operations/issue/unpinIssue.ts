import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const unpinIssue: Handler<'unpinIssue'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.pins.unpin(loaded, req.path.index, actor);
  return { status: 204 };
};
