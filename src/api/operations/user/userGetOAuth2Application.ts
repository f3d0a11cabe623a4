import { toOAuth2Application } from '../../../convert/oauthApp.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userGetOAuth2Application: Handler<'userGetOAuth2Application'> = async (req) => {
  const me = actorOf(req);
  return { status: 200, body: toOAuth2Application(await req.services.oauthApps.get(me.id, req.path.id)) };
};
