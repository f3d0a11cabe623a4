import { toGitBlob } from '../../../convert/gitData.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const GetBlob: Handler<'GetBlob'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = await req.services.gitData.blob(loaded, req.path.sha);
  const api = repoUrls(req.config, loaded.owner.name, loaded.repo.name).api;
  return { status: 200, body: toGitBlob(b, api) };
};
