import { NotFound } from '../../../services/errors.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCurrentCheckStarring: Handler<'userCurrentCheckStarring'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  if (!(await req.services.stars.isStarring(loaded, actorOf(req)))) throw new NotFound();
  return { status: 204 };
};
