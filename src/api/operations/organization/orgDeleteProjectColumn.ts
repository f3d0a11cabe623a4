import { actorOf, loadOrg } from '../../load.js';
import type { Handler } from '../../types.js';

export const orgDeleteProjectColumn: Handler<'orgDeleteProjectColumn'> = async (req) => {
  const { org } = await loadOrg(req, req.path.org);
  const loaded = await req.services.projects.load(org, req.auth.actor, req.path.id, 'write');
  await req.services.projectColumns.delete(loaded, req.path.column_id, actorOf(req));
  return { status: 204 };
};
