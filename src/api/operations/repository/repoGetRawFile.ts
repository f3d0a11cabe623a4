import { loadRepo } from '../../load.js';
import { serveFile } from '../../ranges.js';
import type { Handler } from '../../types.js';

export const repoGetRawFile: Handler<'repoGetRawFile'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const file = await req.services.contents.raw(loaded, req.path.filepath, req.query.ref ?? undefined);
  return serveFile(req.koa.headers, {
    size: file.data.length,
    etag: `"${file.id}"`,
    open: async (range) => ({ data: range ? file.data.subarray(range.start, range.end + 1) : file.data }),
  }, {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`,
  });
};
