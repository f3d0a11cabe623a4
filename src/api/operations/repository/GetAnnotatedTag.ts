import { repoUrls } from '../../../convert/repo.js';
import { toAnnotatedTag } from '../../../convert/tag.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const GetAnnotatedTag: Handler<'GetAnnotatedTag'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const tag = await req.services.tags.annotated(loaded, req.path.sha);
  return { status: 200, body: toAnnotatedTag(tag, repoUrls(req.config, loaded.owner.name, loaded.repo.name).api, await req.services.verifier.verifyTag(tag)) };
};
