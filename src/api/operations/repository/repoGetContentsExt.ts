import { toContentsExt } from '../../../convert/contents.js';
import { repoUrls } from '../../../convert/repo.js';
import { parseContentsIncludes } from '../../../services/git/contents.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetContentsExt: Handler<'repoGetContentsExt'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const includes = parseContentsIncludes(req.query.includes ?? undefined);
  const found = await req.services.contents.ext(loaded, req.path.filepath, req.query.ref ?? undefined, includes);
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  return { status: 200, body: toContentsExt(found, urls, includes.commitMessage) };
};
