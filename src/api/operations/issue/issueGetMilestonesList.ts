import { toMilestone } from '../../../convert/milestone.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const issueGetMilestonesList: Handler<'issueGetMilestonesList'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.milestones.list(loaded, { state: req.query.state ?? 'open', name: req.query.name }, page);
  return { status: 200, body: rows.map(toMilestone), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
