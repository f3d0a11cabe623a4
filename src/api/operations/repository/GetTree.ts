import { toGitTree } from '../../../convert/gitData.js';
import { repoUrls } from '../../../convert/repo.js';
import { treePageSize } from '../../../services/git/gitData.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const GetTree: Handler<'GetTree'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = Math.max(1, req.query.page ?? 1);
  const asked = req.query.per_page ?? 0;
  const perPage = asked <= 0 || asked > treePageSize ? treePageSize : asked;
  const t = await req.services.gitData.tree(loaded, req.path.sha, { recursive: req.query.recursive ?? false, page, perPage });
  const api = repoUrls(req.config, loaded.owner.name, loaded.repo.name).api;
  return { status: 200, body: toGitTree(t, page, api) };
};
