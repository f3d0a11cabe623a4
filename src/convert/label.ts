import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { LabelRow } from '../db/schema/index.js';

/** API URL of an organization (its labels live under it). */
export const orgApiUrl = (config: Config, org: string) => `${config.rootUrl}api/v1/orgs/${encodeURIComponent(org)}`;

/**
 * `repoApi`: the API URL of the repository a repository label belongs to; `orgApi`: that of the
 * organization whose labels an organization label is (Gitea's URLs for each kind).
 */
export function toLabel(l: LabelRow, repoApi: string, orgApi?: string): components['schemas']['Label'] {
  const base = l.repoId == null && orgApi ? orgApi : repoApi;
  return {
    id: l.id,
    name: l.name,
    exclusive: l.exclusive,
    is_archived: l.isArchived,
    color: l.color.replace(/^#/, ''),
    description: l.description,
    url: `${base}/labels/${l.id}`,
  };
}
