import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentIssuesAcross } from '../../../present/issues.js';
import type { Handler } from '../../types.js';

export const issueListBlocks: Handler<'issueListBlocks'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.dependencies.list(loaded, req.path.index, 'blocks', req.auth.actor, page);
  const byRepo = new Map(rows.map((r) => [r.repo.id, r]));
  const body = await presentIssuesAcross(req, rows.map((r) => r.issue), (id) => byRepo.get(id)!);
  return { status: 200, body, headers: pageHeaders(req.config, req.koa.url, page, total) };
};
