import { toFileContentsList } from '../../../convert/contents.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetFileContentsPost: Handler<'repoGetFileContentsPost'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const found = await req.services.contents.files(loaded, req.body.files ?? [], req.query.ref ?? undefined);
  return { status: 200, body: toFileContentsList(found, repoUrls(req.config, loaded.owner.name, loaded.repo.name)) };
};
