import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentDeleteSubscription: Handler<'userCurrentDeleteSubscription'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.watches.unwatch(loaded, actorOf(req));
  return { status: 204 };
};
