import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoMergeUpstream: Handler<'repoMergeUpstream'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const style = await req.services.mergeUpstream.mergeUpstream(loaded, actor, { branch: req.body.branch, ffOnly: req.body.ff_only });
  return { status: 200, body: { merge_style: style } };
};
