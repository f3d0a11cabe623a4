import { repoUrls } from '../../../convert/repo.js';
import { toCommitStatus } from '../../../convert/status.js';
import { actorOf, loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoCreateStatus: Handler<'repoCreateStatus'> = async (req) => {
  const actor = actorOf(req);
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const status = await req.services.statuses.create(loaded, actor, req.path.sha, {
    state: req.body.state,
    targetUrl: req.body.target_url ?? undefined,
    description: req.body.description ?? undefined,
    context: req.body.context ?? undefined,
  });
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  return { status: 201, body: toCommitStatus(status, urls.api, req.auth.actor, req.config) };
};
