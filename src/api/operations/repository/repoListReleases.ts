import { toRelease } from '../../../convert/release.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoListReleases: Handler<'repoListReleases'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.releases.list(loaded, { draft: req.query.draft, prerelease: req.query['pre-release'] }, page);
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  return {
    status: 200,
    body: rows.map((v) => toRelease(v.release, v.publisher, v.assets, urls, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
