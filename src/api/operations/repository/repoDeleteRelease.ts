import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteRelease: Handler<'repoDeleteRelease'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.releases.delete(loaded, actor, req.path.id);
  return { status: 204 };
};
