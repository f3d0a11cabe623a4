import { toAttachment } from '../../../convert/attachment.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueCreateIssueAttachment: Handler<'issueCreateIssueAttachment'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const row = await req.services.attachments.createForIssue(loaded, req.path.index, actor, { file: req.body.files.attachment, name: req.query.name });
  return { status: 201, body: toAttachment(row, req.config) };
};
