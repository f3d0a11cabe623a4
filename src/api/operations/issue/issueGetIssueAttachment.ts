import { toAttachment } from '../../../convert/attachment.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueGetIssueAttachment: Handler<'issueGetIssueAttachment'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { row } = await req.services.attachments.getForIssue(loaded, req.path.index, req.path.attachment_id);
  return { status: 200, body: toAttachment(row, req.config) };
};
