import { toGpgKey } from '../../../convert/gpgKey.js';
import { actorOf } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userCurrentListGPGKeys: Handler<'userCurrentListGPGKeys'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.gpgKeys.list(actorOf(req), page);
  return { status: 200, body: rows.map(toGpgKey), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
