import { toPublicKey } from '../../../convert/key.js';
import { loadUser } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userListKeys: Handler<'userListKeys'> = async (req) => {
  const user = await loadUser(req, req.path.username);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.keys.listUserKeys(user, req.query.fingerprint, page);
  return { status: 200, body: rows.map((k) => toPublicKey(k, user, req.auth.actor, req.config)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
