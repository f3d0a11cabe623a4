import { repoUrls } from '../../../convert/repo.js';
import { toTag } from '../../../convert/tag.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoCreateTag: Handler<'repoCreateTag'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const tag = await req.services.tags.create(loaded, actor, {
    name: req.body.tag_name,
    message: req.body.message ?? undefined,
    target: req.body.target ?? undefined,
  });
  return { status: 201, body: toTag(tag, repoUrls(req.config, loaded.owner.name, loaded.repo.name)) };
};
