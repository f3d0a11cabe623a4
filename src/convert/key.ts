import type { components } from '../../generated/openapi.js';
import type { Config } from '../config.js';
import type { PublicKeyRow, UserRow } from '../db/schema/index.js';
import type { DeployKeyEntry } from '../services/keys/keys.js';
import { repoUrls } from './repo.js';
import { iso, isoOrNull } from './time.js';
import { toUser } from './user.js';

type Schemas = components['schemas'];

export function toPublicKey(k: PublicKeyRow, owner: UserRow, viewer: UserRow | null, config: Config): Schemas['PublicKey'] {
  return {
    id: k.id,
    key: k.content,
    key_type: 'user',
    fingerprint: k.fingerprint,
    title: k.name,
    read_only: false,
    url: `${config.rootUrl}api/v1/user/keys/${k.id}`,
    created_at: iso(k.createdAt),
    last_used_at: isoOrNull(k.lastUsedAt),
    user: toUser(owner, viewer, config),
  };
}

/** `repository` is given only to those who may see it with the key (see repoListKeys). */
export function toDeployKey(e: DeployKeyEntry, owner: UserRow, repoName: string, config: Config, repository?: Schemas['Repository']): Schemas['DeployKey'] {
  return {
    id: e.deploy.id,
    key_id: e.key.id,
    key: e.key.content,
    key_type: 'ssh',
    fingerprint: e.key.fingerprint,
    title: e.deploy.name,
    read_only: e.deploy.readOnly,
    url: `${repoUrls(config, owner.name, repoName).api}/keys/${e.deploy.id}`,
    created_at: iso(e.deploy.createdAt),
    ...(repository ? { repository } : {}),
  };
}
