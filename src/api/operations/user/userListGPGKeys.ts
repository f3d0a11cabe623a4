import { toGpgKey } from '../../../convert/gpgKey.js';
import { loadUser } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userListGPGKeys: Handler<'userListGPGKeys'> = async (req) => {
  const user = await loadUser(req, req.path.username);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.gpgKeys.list(user, page);
  return { status: 200, body: rows.map(toGpgKey), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
