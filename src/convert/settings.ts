// The server's general settings (GET /settings/api, /settings/repository, /settings/ui), from its
// configuration and from what anvil serves at all.
import type { components } from '../../generated/openapi.js';
import { allowedReactions } from '../services/issues/reactions.js';
import type { Config } from '../config.js';
import { treePageSize } from '../services/git/gitData.js';

type Schemas = components['schemas'];

/** Gitea's `[api] DEFAULT_MAX_BLOB_SIZE`; anvil answers blobs of any size, so it reports Gitea's default. */
const defaultMaxBlobSize = 10 * 1024 * 1024;

export function toAPISettings(config: Config): Schemas['GeneralAPISettings'] {
  return {
    default_git_trees_per_page: treePageSize,
    default_max_blob_size: defaultMaxBlobSize,
    default_paging_num: config.pageSize.default,
    max_response_items: config.pageSize.max,
  };
}

/** Git over HTTP, stars and time tracking are served; mirrors, migrations and LFS are not built. */
export function toRepositorySettings(): Schemas['GeneralRepoSettings'] {
  return {
    http_git_disabled: false,
    lfs_disabled: true,
    migrations_disabled: true,
    mirrors_disabled: true,
    stars_disabled: false,
    time_tracking_disabled: false,
  };
}

/** Gitea's `[ui]` defaults: anvil's pages have no themes or custom emojis of their own. */
export function toUISettings(): Schemas['GeneralUISettings'] {
  return {
    allowed_reactions: [...allowedReactions],
    custom_emojis: ['git', 'gitea', 'codeberg', 'gitlab', 'github', 'gogs'],
    default_theme: 'gitea-auto',
  };
}
