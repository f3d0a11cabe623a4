import { toBranchProtection } from '../../../convert/branchProtection.js';
import { actorOf, loadRepo } from '../../load.js';
import { protectionInput } from '../../protectionInput.js';
import type { Handler } from '../../types.js';

export const repoCreateBranchProtection: Handler<'repoCreateBranchProtection'> = async (req) => {
  actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const name = req.body.rule_name || req.body.branch_name || '';
  return { status: 201, body: toBranchProtection(await req.services.protections.create(loaded, name, protectionInput(req.body))) };
};
