import { orgApiUrl, toLabel } from '../../../convert/label.js';
import { loadOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgGetLabel: Handler<'orgGetLabel'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const label = await req.services.labels.getOfOrg(org, req.path.id);
  const api = orgApiUrl(req.config, org.name);
  return { status: 200, body: toLabel(label, api, api) };
};
