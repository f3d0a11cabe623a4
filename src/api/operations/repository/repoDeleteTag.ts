import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteTag: Handler<'repoDeleteTag'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.tags.delete(loaded, actorOf(req), req.path.tag);
  return { status: 204 };
};
