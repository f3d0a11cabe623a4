import { orgApiUrl, toLabel } from '../../../convert/label.js';
import { loadOrg } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const orgListLabels: Handler<'orgListLabels'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.labels.listOfOrg(org, page);
  const api = orgApiUrl(req.config, org.name);
  return { status: 200, body: rows.map((l) => toLabel(l, api, api)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
