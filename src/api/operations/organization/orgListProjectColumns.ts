import { loadOrg } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentColumns } from '../../../present/projects.js';
import type { Handler } from '../../types.js';

export const orgListProjectColumns: Handler<'orgListProjectColumns'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const loaded = await req.services.projects.load(org, req.auth.actor, req.path.id, 'read');
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.projectColumns.list(loaded, page);
  return { status: 200, body: await presentColumns(req, rows), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
