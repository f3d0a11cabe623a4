import { toRepository } from '../../../convert/repo.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoTransfer: Handler<'repoTransfer'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const done = await req.services.transfers.start(loaded, actorOf(req), { newOwner: req.body.new_owner, teamIds: req.body.team_ids });
  const { config, auth } = req;
  if (done.pending) return { status: 201, body: toRepository(done.repo, done.owner, done.perm, auth.actor, config, done.transfer) };
  return { status: 202, body: toRepository(done.repo, done.owner, done.perm, auth.actor, config) };
};
