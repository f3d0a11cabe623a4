import { toWorkflowJob } from '../../../convert/actions.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const getUserWorkflowJobs: Handler<'getUserWorkflowJobs'> = async (req) => {
  const ownerId = userScope(req).ownerId;
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.actionQueries.listJobs({ ownerId, status: req.query.status, order: req.query.order ?? 'asc', ...page });
  return { status: 200, body: { jobs: rows.map((v) => toWorkflowJob(v, req.config)), total_count: total }, headers: pageHeaders(req.config, req.koa.url, page, total) };
};
