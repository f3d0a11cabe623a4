import { loadOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgDelete: Handler<'orgDelete'> = async (req) => {
  const { org, viewer } = await loadOrg(req, req.path.org);
  await req.services.orgs.delete(org, viewer);
  return { status: 204 };
};
