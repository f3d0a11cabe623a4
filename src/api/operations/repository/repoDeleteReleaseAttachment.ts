import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteReleaseAttachment: Handler<'repoDeleteReleaseAttachment'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.releaseAssets.delete(loaded, req.path.id, req.path.attachment_id);
  return { status: 204 };
};
