import { loadRepo } from '../../load.js';
import { presentIssues } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const repoListPinnedIssues: Handler<'repoListPinnedIssues'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: await presentIssues(req, loaded, await req.services.pins.pinnedIssues(loaded)) };
};
