import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueDeleteIssueAttachment: Handler<'issueDeleteIssueAttachment'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.attachments.deleteForIssue(loaded, req.path.index, req.path.attachment_id, actor);
  return { status: 204 };
};
