import { repoUrls } from '../../../convert/repo.js';
import { toTag } from '../../../convert/tag.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetTag: Handler<'repoGetTag'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const tag = await req.services.tags.get(loaded, req.path.tag);
  return { status: 200, body: toTag(tag, repoUrls(req.config, loaded.owner.name, loaded.repo.name)) };
};
