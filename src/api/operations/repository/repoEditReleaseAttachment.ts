import { toAttachment } from '../../../convert/attachment.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoEditReleaseAttachment: Handler<'repoEditReleaseAttachment'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const row = await req.services.releaseAssets.rename(loaded, req.path.id, req.path.attachment_id, req.body.name);
  return { status: 201, body: toAttachment(row, req.config) };
};
