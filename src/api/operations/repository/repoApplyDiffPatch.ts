import { toFileCommit, unverified } from '../../../convert/commit.js';
import { repoUrls } from '../../../convert/repo.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoApplyDiffPatch: Handler<'repoApplyDiffPatch'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const commit = await req.services.diffpatch.apply(loaded, actor, {
    content: b.content,
    branch: b.branch ?? undefined,
    newBranch: b.new_branch ?? undefined,
    forcePush: b.force_push ?? undefined,
    message: b.message ?? undefined,
    author: b.author ?? undefined,
    committer: b.committer ?? undefined,
    dates: b.dates ? { author: b.dates.author ?? undefined, committer: b.dates.committer ?? undefined } : undefined,
    signoff: b.signoff ?? undefined,
  });
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  return { status: 201, body: { content: null, commit: toFileCommit(commit, urls.html, urls.api), verification: unverified() } };
};
