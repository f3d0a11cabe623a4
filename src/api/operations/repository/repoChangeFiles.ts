import { toFilesResponse } from '../../../convert/fileChange.js';
import { repoUrls } from '../../../convert/repo.js';
import { fileOptions } from '../../fileChangeInput.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoChangeFiles: Handler<'repoChangeFiles'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const result = await req.services.files.change(loaded, actor, {
    ...fileOptions(b),
    files: b.files.map((f) => ({
      operation: f.operation,
      path: f.path,
      fromPath: f.from_path || undefined,
      content: f.content ?? undefined,
      sha: f.sha || undefined,
    })),
  });
  return { status: 201, body: toFilesResponse(result, repoUrls(req.config, loaded.owner.name, loaded.repo.name)) };
};
