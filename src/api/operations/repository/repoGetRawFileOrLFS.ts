import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetRawFileOrLFS: Handler<'repoGetRawFileOrLFS'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const file = await req.services.lfs.media(loaded, req.path.filepath, req.query.ref ?? undefined);
  if (file.redirect) return { status: 303 as const, headers: { Location: file.redirect } as Record<string, string> };
  return {
    status: 200,
    // An LFS object is streamed from the store as Koa reads it: never held whole.
    body: (file.stream ?? file.data) as Buffer,
    headers: {
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(file.size),
      'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    },
  };
};
