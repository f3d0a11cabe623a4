import { toRepository } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGet: Handler<'repoGet'> = async (req) => {
  const { repo, owner, perm, transferPending } = await loadRepo(req, req.path.owner, req.path.repo, { beingMigrated: true });
  const transfer = transferPending === false ? null : await req.services.transfers.viewOf(repo.id);
  const parent = await req.services.forks.parentOf(repo, req.auth.actor);
  const mirror = await req.services.mirrors.viewOf(repo);
  return { status: 200, body: toRepository(repo, owner, perm, req.auth.actor, req.config, transfer, parent, mirror) };
};
