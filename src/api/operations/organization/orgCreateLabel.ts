import { orgApiUrl, toLabel } from '../../../convert/label.js';
import { loadOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgCreateLabel: Handler<'orgCreateLabel'> = async (req) => {
  const { org, viewer } = await loadOrg(req, req.path.org);
  const b = req.body;
  const label = await req.services.labels.createInOrg(org, viewer, {
    name: b.name,
    color: b.color,
    description: b.description ?? undefined,
    exclusive: b.exclusive ?? undefined,
    isArchived: b.is_archived ?? undefined,
  });
  const api = orgApiUrl(req.config, org.name);
  return { status: 201, body: toLabel(label, api, api) };
};
