import { toBranchProtection } from '../../../convert/branchProtection.js';
import { actorOf, loadRepo } from '../../load.js';
import { protectionInput } from '../../protectionInput.js';
import type { Handler } from '../../types.js';

export const repoEditBranchProtection: Handler<'repoEditBranchProtection'> = async (req) => {
  actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: toBranchProtection(await req.services.protections.edit(loaded, req.path.name, protectionInput(req.body))) };
};
