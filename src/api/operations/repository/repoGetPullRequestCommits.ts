import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentCommits } from '../../../present/commits.js';
import type { Handler } from '../../types.js';

export const repoGetPullRequestCommits: Handler<'repoGetPullRequestCommits'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const opts = { files: req.query.files ?? true, verification: req.query.verification ?? true };
  const { rows, total } = await req.services.pullChanges.commits(loaded, req.path.index, page, opts);
  const headers = { ...pageHeaders(req.config, req.koa.url, page, total), 'X-HasMore': String(page.offset + rows.length < total) };
  return { status: 200, body: await presentCommits(req, loaded, rows, opts), headers };
};
