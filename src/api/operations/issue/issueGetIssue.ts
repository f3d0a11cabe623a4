import { loadRepo } from '../../load.js';
import { presentIssue } from '../../present.js';
import type { Handler } from '../../types.js';

export const issueGetIssue: Handler<'issueGetIssue'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  return { status: 200, body: await presentIssue(req, loaded, issue) };
};
