import { loadRepo, loadUser } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentIssuesWithDetails } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

const list = (s?: string) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined);

export const issueListIssues: Handler<'issueListIssues'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const q = req.query;
  const page = pageOf(q, req.config);
  // An unknown user in a filter is 404, as in Gitea.
  const [createdBy, assignedTo, mentioned] = await Promise.all(
    [q.created_by, q.assigned_by, q.mentioned_by].map(async (name) => (name ? (await loadUser(req, name)).id : undefined)),
  );
  const { rows, total } = await req.services.issues.list(
    loaded,
    { state: q.state ?? 'open', type: q.type, labels: list(q.labels), milestones: list(q.milestones), q: q.q, since: q.since, before: q.before, createdBy, assignedTo, mentioned },
    page,
  );
  return { status: 200, body: await presentIssuesWithDetails(req, loaded, rows), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
