import { toActionArtifact } from '../../../convert/artifacts.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const getArtifact: Handler<'getArtifact'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const artifact = await req.services.artifacts.get(loaded, req.path.artifact_id);
  return { status: 200, body: toActionArtifact(artifact, req.config, loaded.owner.name, loaded.repo.name) };
};
