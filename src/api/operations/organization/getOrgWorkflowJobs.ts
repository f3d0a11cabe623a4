import { toWorkflowJob } from '../../../convert/actions.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const getOrgWorkflowJobs: Handler<'getOrgWorkflowJobs'> = async (req) => {
  const ownerId = (await orgRunnerScope(req, req.path)).ownerId;
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.actionQueries.listJobs({ ownerId, status: req.query.status, order: req.query.order ?? 'asc', ...page });
  return { status: 200, body: { jobs: rows.map((v) => toWorkflowJob(v, req.config)), total_count: total }, headers: pageHeaders(req.config, req.koa.url, page, total) };
};
