import { toAttachment } from '../../../convert/attachment.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetReleaseAttachment: Handler<'repoGetReleaseAttachment'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const row = await req.services.releaseAssets.get(loaded, req.path.id, req.path.attachment_id);
  return { status: 200, body: toAttachment(row, req.config) };
};
