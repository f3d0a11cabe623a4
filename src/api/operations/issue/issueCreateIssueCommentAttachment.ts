import { toAttachment } from '../../../convert/attachment.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueCreateIssueCommentAttachment: Handler<'issueCreateIssueCommentAttachment'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const row = await req.services.attachments.createForComment(loaded, req.path.id, actor, { file: req.body.files.attachment, name: req.query.name });
  return { status: 201, body: toAttachment(row, req.config) };
};
