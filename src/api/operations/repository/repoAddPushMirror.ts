import { toPushMirror } from '../../../convert/pushMirror.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoAddPushMirror: Handler<'repoAddPushMirror'> = async (req) => {
  actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const row = await req.services.pushMirrors.add(loaded, {
    remoteAddress: b.remote_address, remoteUsername: b.remote_username, remotePassword: b.remote_password, interval: b.interval, syncOnCommit: b.sync_on_commit,
  });
  return { status: 200, body: toPushMirror(row, loaded.repo.name) };
};
