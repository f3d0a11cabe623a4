import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetArchive: Handler<'repoGetArchive'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { name, stream } = await req.services.gitData.archive(loaded, req.path.archive);
  return {
    status: 200,
    // Koa streams a stream body as it is read (chunked), so the archive is never held whole.
    body: stream as unknown as Buffer,
    headers: {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
    },
  };
};
