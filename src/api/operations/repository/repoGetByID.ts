import { toRepository } from '../../../convert/repo.js';
import { loadRepoById } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetByID: Handler<'repoGetByID'> = async (req) => {
  const { repo, owner, perm } = await loadRepoById(req, req.path.id);
  const transfer = await req.services.transfers.viewOf(repo.id);
  const parent = await req.services.forks.parentOf(repo, req.auth.actor);
  const mirror = await req.services.mirrors.viewOf(repo);
  return { status: 200, body: toRepository(repo, owner, perm, req.auth.actor, req.config, transfer, parent, mirror) };
};
