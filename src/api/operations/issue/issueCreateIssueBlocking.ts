import { issueOfMeta } from '../../issueMeta.js';
import { actorOf, loadRepo } from '../../load.js';
import { presentIssue } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const issueCreateIssueBlocking: Handler<'issueCreateIssueBlocking'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const other = await issueOfMeta(req, loaded, req.body);
  await req.services.dependencies.change(other, { loaded, index: req.path.index }, actor, true);
  const issue = await req.services.issues.load(loaded, req.path.index);
  return { status: 201, body: await presentIssue(req, loaded, issue) };
};
