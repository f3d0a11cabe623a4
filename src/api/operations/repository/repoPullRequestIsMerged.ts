import { loadRepo } from '../../load.js';
import { NotFound } from '../../../services/errors.js';
import type { Handler } from '../../types.js';

export const repoPullRequestIsMerged: Handler<'repoPullRequestIsMerged'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  if (!(await req.services.merges.isMerged(loaded, req.path.index))) throw new NotFound();
  return { status: 204 };
};
