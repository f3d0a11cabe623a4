import { loadOrg } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentProjects } from '../../../present/projects.js';
import type { Handler } from '../../types.js';

export const orgListProjects: Handler<'orgListProjects'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.projects.list(org, req.auth.actor, req.query.state ?? 'open', page);
  return { status: 200, body: await presentProjects(req, rows), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
