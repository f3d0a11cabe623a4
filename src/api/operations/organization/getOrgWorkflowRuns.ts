import { toWorkflowRun } from '../../../convert/actions.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const getOrgWorkflowRuns: Handler<'getOrgWorkflowRuns'> = async (req) => {
  const ownerId = (await orgRunnerScope(req, req.path)).ownerId;
  const page = pageOf(req.query, req.config);
  const q = req.query;
  const { rows, total } = await req.services.actionQueries.listRuns({ ownerId, event: q.event, branch: q.branch, status: q.status, actor: q.actor, headSha: q.head_sha, ...page });
  return {
    status: 200,
    body: { workflow_runs: rows.map((v) => toWorkflowRun(v, req.auth.actor, req.config)), total_count: total },
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
