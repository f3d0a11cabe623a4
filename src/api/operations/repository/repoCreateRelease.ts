import { toRelease } from '../../../convert/release.js';
import { repoUrls } from '../../../convert/repo.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoCreateRelease: Handler<'repoCreateRelease'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const v = await req.services.releases.create(loaded, actor, {
    tagName: b.tag_name,
    target: b.target_commitish ?? undefined,
    title: b.name ?? undefined,
    note: b.body ?? undefined,
    tagMessage: b.tag_message ?? undefined,
    isDraft: b.draft ?? undefined,
    isPrerelease: b.prerelease ?? undefined,
  });
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  return { status: 201, body: toRelease(v.release, v.publisher, v.assets, urls, req.config) };
};
