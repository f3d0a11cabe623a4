import { pageHeaders, pageOf } from '../../pagination.js';
import { presentIssuesAcross } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

const list = (s?: string) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined);

export const issueSearchIssues: Handler<'issueSearchIssues'> = async (req) => {
  const q = req.query;
  const page = pageOf(q, req.config);
  const { rows, total, repos } = await req.services.issueSearch.search(
    req.auth.actor,
    {
      state: q.state ?? 'open', type: q.type, labels: list(q.labels), milestones: list(q.milestones), q: q.q,
      priorityRepoId: q.priority_repo_id, since: q.since, before: q.before,
      assigned: q.assigned, created: q.created, mentioned: q.mentioned, reviewRequested: q.review_requested, reviewed: q.reviewed,
      owner: q.owner?.trim() || undefined, team: q.team?.trim() || undefined,
    },
    page,
  );
  return { status: 200, body: await presentIssuesAcross(req, rows, (id) => repos.get(id)!), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
