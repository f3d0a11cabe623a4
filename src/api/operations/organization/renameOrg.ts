import { loadOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const renameOrg: Handler<'renameOrg'> = async (req) => {
  const { org, viewer } = await loadOrg(req, req.path.org);
  await req.services.orgs.rename(org, viewer, req.body.new_name);
  return { status: 204 };
};
