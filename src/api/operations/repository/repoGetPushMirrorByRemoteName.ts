import { toPushMirror } from '../../../convert/pushMirror.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetPushMirrorByRemoteName: Handler<'repoGetPushMirrorByRemoteName'> = async (req) => {
  actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: toPushMirror(await req.services.pushMirrors.byName(loaded, req.path.name), loaded.repo.name) };
};
