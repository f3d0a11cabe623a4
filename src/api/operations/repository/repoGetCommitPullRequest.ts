import { loadRepo } from '../../load.js';
import { presentPull } from '../../../present/pulls.js';
import type { Handler } from '../../types.js';

export const repoGetCommitPullRequest: Handler<'repoGetCommitPullRequest'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const view = await req.services.pulls.byMergeCommit(loaded, req.path.sha);
  return { status: 200, body: await presentPull(req, loaded, view) };
};
