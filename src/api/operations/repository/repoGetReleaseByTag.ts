import { toRelease } from '../../../convert/release.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetReleaseByTag: Handler<'repoGetReleaseByTag'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const v = await req.services.releases.byTag(loaded, req.path.tag);
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  return { status: 200, body: toRelease(v.release, v.publisher, v.assets, urls, req.config) };
};
