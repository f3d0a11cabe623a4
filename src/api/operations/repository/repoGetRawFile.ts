import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetRawFile: Handler<'repoGetRawFile'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const file = await req.services.contents.raw(loaded, req.path.filepath, req.query.ref ?? undefined);
  return {
    status: 200,
    body: file.data,
    headers: {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    },
  };
};
