import { repoUrls } from '../../../convert/repo.js';
import { toCommitStatus } from '../../../convert/status.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoListStatuses: Handler<'repoListStatuses'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.statuses.listBySha(loaded, req.path.sha, { sort: req.query.sort, state: req.query.state, ...page });
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  return {
    status: 200,
    body: rows.map((s) => toCommitStatus(s, urls.api, req.auth.actor, req.config)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
