import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoUpdateBranchProtectionPriories: Handler<'repoUpdateBranchProtectionPriories'> = async (req) => {
  actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.protections.setPriorities(loaded, req.body.ids ?? []);
  return { status: 204 };
};
