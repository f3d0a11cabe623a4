import { toFileContentsList } from '../../../convert/contents.js';
import { repoUrls } from '../../../convert/repo.js';
import { filesOptionsFromQuery } from '../../../services/git/contents.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetFileContents: Handler<'repoGetFileContents'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const files = filesOptionsFromQuery(req.query.body);
  const found = await req.services.contents.files(loaded, files, req.query.ref ?? undefined);
  return { status: 200, body: toFileContentsList(found, repoUrls(req.config, loaded.owner.name, loaded.repo.name)) };
};
