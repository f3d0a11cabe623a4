import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const GetBlob: Handler<'GetBlob'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = await req.services.gitData.blob(loaded, req.path.sha);
  const api = repoUrls(req.config, loaded.owner.name, loaded.repo.name).api;
  return { status: 200, body: { content: b.data.toString('base64'), encoding: 'base64', url: `${api}/git/blobs/${b.sha}`, sha: b.sha, size: b.data.length } };
};
