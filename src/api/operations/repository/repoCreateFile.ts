import { toFileResponse } from '../../../convert/fileChange.js';
import { repoUrls } from '../../../convert/repo.js';
import { fileOptions } from '../../fileChangeInput.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoCreateFile: Handler<'repoCreateFile'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const result = await req.services.files.change(loaded, actor, {
    ...fileOptions(b),
    files: [{ operation: 'create', path: req.path.filepath, content: b.content }],
  });
  return { status: 201, body: toFileResponse(result, repoUrls(req.config, loaded.owner.name, loaded.repo.name)) };
};
