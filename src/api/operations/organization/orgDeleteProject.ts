import { loadOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgDeleteProject: Handler<'orgDeleteProject'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  await req.services.projects.delete(await req.services.projects.load(org, req.auth.actor, req.path.id, 'write'));
  return { status: 204 };
};
