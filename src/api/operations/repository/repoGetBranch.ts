import { toBranch } from '../../../convert/branch.js';
import { repoUrls } from '../../../convert/repo.js';
import { canRead, canWrite } from '../../../permissions/repo.js';
import { NotFound } from '../../../services/errors.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetBranch: Handler<'repoGetBranch'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
  const b = await req.services.branches.get(loaded, req.path.branch);
  const names = await req.services.users.namesByEmail([b.commit.author.email, b.commit.committer.email]);
  const html = repoUrls(req.config, loaded.owner.name, loaded.repo.name).html;
  return { status: 200, body: toBranch(b.name, b.commit, html, canWrite(loaded.perm, 'repo.code'), names) };
};
