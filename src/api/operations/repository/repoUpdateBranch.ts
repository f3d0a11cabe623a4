import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoUpdateBranch: Handler<'repoUpdateBranch'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.branches.update(loaded, actor, req.path.branch, {
    newCommitId: req.body.new_commit_id, oldCommitId: req.body.old_commit_id, force: req.body.force,
  });
  return { status: 204 };
};
