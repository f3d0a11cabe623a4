import { toAttachment } from '../../../convert/attachment.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoCreateReleaseAttachment: Handler<'repoCreateReleaseAttachment'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const row = await req.services.releaseAssets.create(loaded, req.path.id, actor, { file: req.body.files.attachment, name: req.query.name });
  return { status: 201, body: toAttachment(row, req.config) };
};
