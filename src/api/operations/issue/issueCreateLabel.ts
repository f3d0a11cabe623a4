import { toLabel } from '../../../convert/label.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueCreateLabel: Handler<'issueCreateLabel'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const label = await req.services.labels.create(loaded, {
    name: b.name,
    color: b.color,
    description: b.description ?? undefined,
    exclusive: b.exclusive ?? undefined,
    isArchived: b.is_archived ?? undefined,
  });
  return { status: 201, body: toLabel(label, repoUrls(req.config, loaded.owner.name, loaded.repo.name).api) };
};
