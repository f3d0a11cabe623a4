import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeletePushMirror: Handler<'repoDeletePushMirror'> = async (req) => {
  actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.pushMirrors.remove(loaded, req.path.name);
  return { status: 204 };
};
