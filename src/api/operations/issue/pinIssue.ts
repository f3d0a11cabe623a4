import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const pinIssue: Handler<'pinIssue'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.pins.pin(loaded, req.path.index, actor);
  return { status: 204 };
};
