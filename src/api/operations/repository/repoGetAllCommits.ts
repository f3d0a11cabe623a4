import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentCommits } from '../../../present/commits.js';
import { instant } from '../../queryDates.js';
import type { Handler } from '../../types.js';

export const repoGetAllCommits: Handler<'repoGetAllCommits'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const q = req.query;
  const page = pageOf(q, req.config);
  const opts = { files: q.files ?? true, verification: q.verification ?? true, stat: q.stat ?? true };
  const { rows, total } = await req.services.gitData.commits(
    loaded,
    { sha: q.sha || undefined, path: q.path || undefined, since: instant('since', q.since), until: instant('until', q.until), not: q.not || undefined },
    page,
    opts,
  );
  const pages = Math.ceil(total / page.limit);
  const headers = {
    ...pageHeaders(req.config, req.koa.url, page, total),
    'X-HasMore': String(page.page < pages),
    // Gitea's older paging headers, kept by its clients.
    'X-Page': String(page.page),
    'X-PerPage': String(page.limit),
    'X-Total': String(total),
    'X-PageCount': String(pages),
  };
  return { status: 200, body: await presentCommits(req, loaded, rows, opts), headers };
};
