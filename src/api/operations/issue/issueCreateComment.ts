import { actorOf, loadRepo } from '../../load.js';
import { presentComments } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const issueCreateComment: Handler<'issueCreateComment'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const issue = await req.services.issues.load(loaded, req.path.index);
  const comment = await req.services.comments.create(loaded, issue, actor, req.body.body);
  return { status: 201, body: (await presentComments(req, loaded, issue, [comment]))[0]! };
};
