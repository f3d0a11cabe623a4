import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const downloadArtifact: Handler<'downloadArtifact'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { stream, size, name } = await req.services.artifacts.open(loaded, req.path.artifact_id);
  return {
    status: 200,
    // Streamed from storage as Koa reads it: never held whole.
    body: stream as unknown as Buffer,
    headers: {
      'Content-Type': 'application/zip',
      // A v1–v3 artifact's zip is made while it is sent: no length beforehand.
      ...(size === undefined ? {} : { 'Content-Length': String(size) }),
      'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(`${name}.zip`)}`,
    },
  };
};
