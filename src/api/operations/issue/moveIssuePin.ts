import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const moveIssuePin: Handler<'moveIssuePin'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.pins.move(loaded, req.path.index, actor, req.path.position);
  return { status: 204 };
};
