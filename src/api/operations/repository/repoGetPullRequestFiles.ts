import { toChangedFile } from '../../../convert/commit.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoGetPullRequestFiles: Handler<'repoGetPullRequestFiles'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { files, headSha } = await req.services.pullChanges.files(loaded, req.path.index, { skipTo: req.query['skip-to'] || undefined, whitespace: req.query.whitespace });
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  const body = files.slice(page.offset, page.offset + page.limit).map((f) => toChangedFile(f, headSha, urls));
  return { status: 200, body, headers: pageHeaders(req.config, req.koa.url, page, files.length) };
};
