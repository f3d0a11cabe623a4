import { loadRepo } from '../../load.js';
import { presentCommits } from '../../../present/commits.js';
import type { Handler } from '../../types.js';

export const repoGetSingleCommit: Handler<'repoGetSingleCommit'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const opts = { files: req.query.files ?? true, verification: req.query.verification ?? true, stat: req.query.stat ?? true };
  const row = await req.services.gitData.commit(loaded, req.path.sha, opts);
  const [commit] = await presentCommits(req, loaded, [row], opts);
  return { status: 200, body: commit! };
};
