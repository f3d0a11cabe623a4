import { toPublicKey } from '../../../convert/key.js';
import { actorOf } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userCurrentListKeys: Handler<'userCurrentListKeys'> = async (req) => {
  const me = actorOf(req);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.keys.listUserKeys(me, req.query.fingerprint, page);
  return { status: 200, body: rows.map((k) => toPublicKey(k, me, me, req.config)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
