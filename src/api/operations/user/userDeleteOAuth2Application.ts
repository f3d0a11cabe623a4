import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

export const userDeleteOAuth2Application: Handler<'userDeleteOAuth2Application'> = async (req) => {
  await req.services.oauthApps.delete(actorOf(req).id, req.path.id);
  return { status: 204 };
};
