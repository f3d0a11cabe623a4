import { toAttachment } from '../../../convert/attachment.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueGetIssueCommentAttachment: Handler<'issueGetIssueCommentAttachment'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { row } = await req.services.attachments.getForComment(loaded, req.path.id, req.path.attachment_id);
  return { status: 200, body: toAttachment(row, req.config) };
};
