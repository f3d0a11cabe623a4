import { loadRepo } from '../../load.js';
import { presentComments } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const issueGetComment: Handler<'issueGetComment'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { comment, issue } = await req.services.comments.load(loaded, req.path.id);
  // An event (title change, close, ...) has no text to show: Gitea answers 204.
  if (comment.type !== 'comment') return { status: 204 };
  return { status: 200, body: (await presentComments(req, loaded, issue, [comment]))[0]! };
};
