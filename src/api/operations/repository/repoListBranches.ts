import { toBranch } from '../../../convert/branch.js';
import { repoUrls } from '../../../convert/repo.js';
import { canRead, canWrite } from '../../../permissions/repo.js';
import { NotFound } from '../../../services/errors.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoListBranches: Handler<'repoListBranches'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  if (!canRead(loaded.perm, 'repo.code')) throw new NotFound();
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.branches.list(loaded, page);
  const names = await req.services.users.namesByEmail(rows.flatMap((b) => [b.commit.author.email, b.commit.committer.email]));
  const html = repoUrls(req.config, loaded.owner.name, loaded.repo.name).html;
  const canPush = canWrite(loaded.perm, 'repo.code');
  return {
    status: 200,
    body: rows.map((b) => toBranch(b.name, b.commit, html, canPush, names)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
