import { toOAuth2Application } from '../../../convert/oauthApp.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userCreateOAuth2Application: Handler<'userCreateOAuth2Application'> = async (req) => {
  const me = actorOf(req);
  const b = req.body;
  const { row, secret } = await req.services.oauthApps.create(me.id, {
    name: b.name, redirectUris: b.redirect_uris, confidentialClient: b.confidential_client, skipSecondaryAuthorization: b.skip_secondary_authorization,
  });
  return { status: 201, body: toOAuth2Application(row, secret) };
};
