import { orgApiUrl, toLabel } from '../../../convert/label.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueGetLabels: Handler<'issueGetLabels'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const rows = await req.services.issueLabels.list(loaded, req.path.index);
  const repoApi = repoUrls(req.config, loaded.owner.name, loaded.repo.name).api;
  return { status: 200, body: rows.map((l) => toLabel(l, repoApi, orgApiUrl(req.config, loaded.owner.name))) };
};
