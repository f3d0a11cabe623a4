import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteTagProtection: Handler<'repoDeleteTagProtection'> = async (req) => {
  actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.protections.tags.delete(loaded, req.path.id);
  return { status: 204 };
};
