import { toOrganization } from '../../../convert/org.js';
import { loadOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgGet: Handler<'orgGet'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  return { status: 200, body: toOrganization(org, req.auth.actor, req.config) };
};
