import { toBranchProtection } from '../../../convert/branchProtection.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetBranchProtection: Handler<'repoGetBranchProtection'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: toBranchProtection(await req.services.protections.get(loaded, req.path.name)) };
};
