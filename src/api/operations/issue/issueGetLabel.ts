import { toLabel } from '../../../convert/label.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueGetLabel: Handler<'issueGetLabel'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const label = await req.services.labels.get(loaded, req.path.id);
  return { status: 200, body: toLabel(label, repoUrls(req.config, loaded.owner.name, loaded.repo.name).api) };
};
