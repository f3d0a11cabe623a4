import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoPushMirrorSync: Handler<'repoPushMirrorSync'> = async (req) => {
  actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.pushMirrors.syncAll(loaded);
  return { status: 200 };
};
