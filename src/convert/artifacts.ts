// Actions artifacts as the API shows them (Gitea 1.26's ActionArtifact).
import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { ArtifactView } from '../services/actions/artifacts.js';
import { repoUrls } from './repo.js';
import { iso } from './time.js';

export function toActionArtifact(a: ArtifactView, config: Config, owner: string, repo: string): components['schemas']['ActionArtifact'] {
  const url = `${repoUrls(config, owner, repo).api}/actions/artifacts/${a.id}`;
  return {
    id: a.id,
    name: a.name,
    size_in_bytes: a.size,
    url,
    archive_download_url: `${url}/zip`,
    expired: a.status === 'expired',
    workflow_run: { id: a.runId, repository_id: a.repoId, head_sha: a.headSha },
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
    expires_at: iso(a.expiresAt ?? a.createdAt),
  };
}
