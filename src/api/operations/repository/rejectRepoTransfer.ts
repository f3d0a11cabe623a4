import { toRepository } from '../../../convert/repo.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const rejectRepoTransfer: Handler<'rejectRepoTransfer'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await req.services.transfers.load(req.path.owner, req.path.repo, actor);
  const { repo, owner, perm } = await req.services.transfers.reject(loaded, actor);
  return { status: 200, body: toRepository(repo, owner, perm, actor, req.config) };
};
