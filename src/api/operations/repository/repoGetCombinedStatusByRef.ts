import { repoUrls } from '../../../convert/repo.js';
import { toCombinedStatus } from '../../../convert/status.js';
import { loadRepo } from '../../load.js';
import { pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoGetCombinedStatusByRef: Handler<'repoGetCombinedStatusByRef'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const combined = await req.services.statuses.combined(loaded, req.path.ref, page);
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  return {
    status: 200,
    body: toCombinedStatus(combined, loaded, urls.api, req.auth.actor, req.config),
    headers: { 'X-Total-Count': String(combined.total) },
  };
};
