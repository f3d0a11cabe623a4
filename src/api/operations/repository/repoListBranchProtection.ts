import { toBranchProtection } from '../../../convert/branchProtection.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoListBranchProtection: Handler<'repoListBranchProtection'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: (await req.services.protections.list(loaded)).map(toBranchProtection) };
};
