import type { components } from '../../generated/openapi.js';
import type { OAuth2ApplicationRow } from '../db/schema/index.js';
import { iso } from './time.js';

export type ApiOAuth2Application = components['schemas']['OAuth2Application'];

/** An OAuth2 application; `secret` only in the answer that made it (creation or update). */
export function toOAuth2Application(row: OAuth2ApplicationRow, secret = ''): ApiOAuth2Application {
  return {
    id: row.id,
    name: row.name,
    client_id: row.clientId,
    client_secret: secret,
    redirect_uris: row.redirectUris,
    confidential_client: row.confidentialClient,
    skip_secondary_authorization: row.skipSecondaryAuthorization,
    created: iso(row.createdAt),
  };
}
