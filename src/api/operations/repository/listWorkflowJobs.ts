import { toWorkflowJob } from '../../../convert/actions.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const listWorkflowJobs: Handler<'listWorkflowJobs'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.repoActions.listJobs(loaded, { status: req.query.status, order: req.query.order ?? 'asc', ...page });
  return { status: 200, body: { jobs: rows.map((v) => toWorkflowJob(v, req.config)), total_count: total }, headers: pageHeaders(req.config, req.koa.url, page, total) };
};
