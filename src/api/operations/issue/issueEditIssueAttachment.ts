import { toAttachment } from '../../../convert/attachment.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

// 201, not 200: Gitea's status, which clients check.
export const issueEditIssueAttachment: Handler<'issueEditIssueAttachment'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const row = await req.services.attachments.renameForIssue(loaded, req.path.index, req.path.attachment_id, actor, req.body.name);
  return { status: 201, body: toAttachment(row, req.config) };
};
