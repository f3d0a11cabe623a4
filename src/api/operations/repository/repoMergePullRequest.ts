import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoMergePullRequest: Handler<'repoMergePullRequest'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const outcome = await req.services.merges.merge(loaded, req.path.index, actor, {
    style: b.Do,
    title: b.MergeTitleField ?? undefined,
    message: b.MergeMessageField ?? undefined,
    mergeCommitId: b.MergeCommitID ?? undefined,
    headCommitId: b.head_commit_id || undefined,
    deleteBranch: b.delete_branch_after_merge ?? undefined,
    whenChecksSucceed: b.merge_when_checks_succeed ?? undefined,
    force: b.force_merge ?? undefined,
  });
  // Gitea answers an empty 200 for a merge and an empty 201 for a scheduled one.
  return { status: outcome === 'scheduled' ? 201 : 200 };
};
