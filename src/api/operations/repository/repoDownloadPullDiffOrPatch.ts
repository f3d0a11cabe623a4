import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDownloadPullDiffOrPatch: Handler<'repoDownloadPullDiffOrPatch'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const text = await req.services.pullChanges.diffOrPatch(loaded, req.path.index, req.path.diffType, req.query.binary ?? false);
  return { status: 200, body: text, headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
};
