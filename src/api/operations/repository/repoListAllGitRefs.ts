import { toReferences } from '../../../convert/gitData.js';
import { repoUrls } from '../../../convert/repo.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoListAllGitRefs: Handler<'repoListAllGitRefs'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const refs = await req.services.gitData.refs(loaded);
  return { status: 200, body: toReferences(refs, repoUrls(req.config, loaded.owner.name, loaded.repo.name).api) };
};
