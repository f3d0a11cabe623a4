import { toReaction } from '../../../convert/reaction.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const issueGetIssueReactions: Handler<'issueGetIssueReactions'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.reactions.listForIssue(loaded, req.path.index, page);
  return { status: 200, body: rows.map((r) => toReaction(r, req.auth.actor, req.config)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
