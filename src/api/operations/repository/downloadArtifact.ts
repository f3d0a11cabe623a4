import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const downloadArtifact: Handler<'downloadArtifact'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const zip = await req.services.artifacts.open(loaded, req.path.artifact_id);
  if ('redirect' in zip) return { status: 302, headers: { Location: zip.redirect } };
  const { stream, size, name } = zip;
  const headers: Record<string, string> = {
    'Content-Type': 'application/zip',
    // A v1–v3 artifact's zip is made while it is sent: no length beforehand.
    ...(size === undefined ? {} : { 'Content-Length': String(size) }),
    'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(`${name}.zip`)}`,
  };
  // Streamed from storage as Koa reads it: never held whole.
  return { status: 200, body: stream as unknown as Buffer, headers };
};
