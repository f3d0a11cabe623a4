import { loadOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgDeleteLabel: Handler<'orgDeleteLabel'> = async (req) => {
  const { org, viewer } = await loadOrg(req, req.path.org);
  await req.services.labels.deleteInOrg(org, viewer, req.path.id);
  return { status: 204 };
};
