import { loadRepo } from '../../load.js';
import { serveFile } from '../../ranges.js';
import type { Handler } from '../../types.js';

export const repoGetRawFileOrLFS: Handler<'repoGetRawFileOrLFS'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const file = await req.services.lfs.media(loaded, req.path.filepath, req.query.ref ?? undefined);
  // An LFS object (or its range) is streamed from the store as Koa reads it: never held whole.
  return serveFile(req.koa.headers, file, {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`,
  });
};
