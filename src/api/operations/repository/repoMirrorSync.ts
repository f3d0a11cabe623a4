import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoMirrorSync: Handler<'repoMirrorSync'> = async (req) => {
  actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.mirrors.requestSync(loaded);
  return { status: 200 };
};
