import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDownloadCommitDiffOrPatch: Handler<'repoDownloadCommitDiffOrPatch'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const text = await req.services.gitData.commitDiffOrPatch(loaded, req.path.sha, req.path.diffType);
  return { status: 200, body: text, headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
};
