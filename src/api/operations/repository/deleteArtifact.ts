import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const deleteArtifact: Handler<'deleteArtifact'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.artifacts.delete(loaded, req.path.artifact_id);
  return { status: 204 };
};
