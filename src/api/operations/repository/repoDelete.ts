import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDelete: Handler<'repoDelete'> = async (req) => {
  await req.services.repos.delete(await loadRepo(req, req.path.owner, req.path.repo), actorOf(req));
  return { status: 204 };
};
