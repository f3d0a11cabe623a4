import { repoUrls } from '../../../convert/repo.js';
import { toTag } from '../../../convert/tag.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoListTags: Handler<'repoListTags'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.tags.list(loaded, page);
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  return {
    status: 200,
    body: rows.map((t) => toTag(t, urls)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
