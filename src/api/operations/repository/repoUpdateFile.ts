import { toFileResponse } from '../../../convert/fileChange.js';
import { repoUrls } from '../../../convert/repo.js';
import { fileOptions } from '../../fileChangeInput.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoUpdateFile: Handler<'repoUpdateFile'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const result = await req.services.files.change(loaded, actor, {
    ...fileOptions(b),
    files: [{ operation: 'update', path: req.path.filepath, fromPath: b.from_path || undefined, content: b.content, sha: b.sha }],
  });
  return { status: 200, body: toFileResponse(result, repoUrls(req.config, loaded.owner.name, loaded.repo.name)) };
};
