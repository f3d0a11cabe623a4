import { presentBranches } from '../../../present/branches.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoCreateBranch: Handler<'repoCreateBranch'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const branch = await req.services.branches.create(loaded, actorOf(req), {
    name: b.new_branch_name,
    oldBranch: b.old_branch_name ?? undefined,
    oldRef: b.old_ref_name ?? undefined,
  });
  return { status: 201, body: (await presentBranches(req, loaded, [branch]))[0]! };
};
