import { repoUrls, toRepository } from '../../../convert/repo.js';
import { toCommitStatus } from '../../../convert/status.js';
import { loadRepo } from '../../load.js';
import { pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoGetCombinedStatusByRef: Handler<'repoGetCombinedStatusByRef'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const combined = await req.services.statuses.combined(loaded, req.path.ref, page);
  const urls = repoUrls(req.config, loaded.owner.name, loaded.repo.name);
  const commitUrl = `${urls.api}/commits/${combined.sha}`;
  return {
    status: 200,
    body: {
      state: combined.state as 'success',
      sha: combined.sha,
      total_count: combined.total,
      statuses: combined.rows.map((s) => toCommitStatus(s, urls.api, req.auth.actor, req.config)),
      repository: toRepository(loaded.repo, loaded.owner, loaded.perm, req.auth.actor, req.config),
      commit_url: commitUrl,
      url: `${commitUrl}/status`,
    },
    headers: { 'X-Total-Count': String(combined.total) },
  };
};
