import { toBranch } from '../../../convert/branch.js';
import { repoUrls } from '../../../convert/repo.js';
import { canWrite } from '../../../permissions/repo.js';
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
  const names = await req.services.users.namesByEmail([branch.commit.author.email, branch.commit.committer.email]);
  const html = repoUrls(req.config, loaded.owner.name, loaded.repo.name).html;
  return { status: 201, body: toBranch(branch.name, branch.commit, html, canWrite(loaded.perm, 'repo.code'), names) };
};
