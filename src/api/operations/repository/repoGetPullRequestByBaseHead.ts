import { loadRepo } from '../../load.js';
import { presentPull } from '../../../present/pulls.js';
import type { Handler } from '../../types.js';

export const repoGetPullRequestByBaseHead: Handler<'repoGetPullRequestByBaseHead'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const view = await req.services.pulls.byBranches(loaded, req.path.base, req.path.head);
  return { status: 200, body: await presentPull(req, loaded, view) };
};
