import { toRepository } from '../../../convert/repo.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const createFork: Handler<'createFork'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { repo, owner, perm } = await req.services.forks.fork(loaded, actor, { organization: req.body?.organization, name: req.body?.name });
  // Read again: the parent's forks_count now counts this fork.
  const parent = await req.services.forks.parentOf(repo, actor);
  return { status: 202, body: toRepository(repo, owner, perm, actor, req.config, null, parent) };
};
