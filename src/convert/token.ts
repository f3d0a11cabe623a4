import type { components } from '../../generated/openapi.js';
import type { AccessTokenRow } from '../db/schema/index.js';
import { iso, isoOrNull } from './time.js';

type ApiToken = components['schemas']['AccessToken'];

/** `secret` is given only right after creation: the one time the token is shown. */
export function toAccessToken(row: AccessTokenRow, secret = ''): ApiToken {
  return {
    id: row.id,
    name: row.name,
    sha1: secret,
    token_last_eight: row.tokenLastEight,
    scopes: row.scopes as ApiToken['scopes'],
    created_at: iso(row.createdAt),
    last_used_at: isoOrNull(row.lastUsedAt),
  };
}
