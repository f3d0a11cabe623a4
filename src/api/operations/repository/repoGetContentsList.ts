import { toContents } from '../../../convert/contents.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetContentsList: Handler<'repoGetContentsList'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const found = await req.services.contents.get(loaded, '', req.query.ref ?? undefined);
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  return { status: 200, body: (found.list ?? []).map((e) => toContents(e, urls, found.ref)) };
};
