import { toLabel } from '../../../convert/label.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const issueListLabels: Handler<'issueListLabels'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.labels.list(loaded, page);
  const api = repoUrls(req.config, loaded.owner.name, loaded.repo.name).api;
  return { status: 200, body: rows.map((l) => toLabel(l, api)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
