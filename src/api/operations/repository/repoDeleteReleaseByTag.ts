import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteReleaseByTag: Handler<'repoDeleteReleaseByTag'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.releases.deleteByTag(loaded, actor, req.path.tag);
  return { status: 204 };
};
