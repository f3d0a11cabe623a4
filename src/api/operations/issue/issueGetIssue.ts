import { loadRepo } from '../../load.js';
import { presentLoadedIssue } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const issueGetIssue: Handler<'issueGetIssue'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: await presentLoadedIssue(req, loaded, await req.services.issues.loadWithDetails(loaded, req.path.index)) };
};
