import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueDeleteComment: Handler<'issueDeleteComment'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.comments.delete(loaded, req.path.id, actor);
  return { status: 204 };
};
