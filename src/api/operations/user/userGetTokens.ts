import { toAccessToken } from '../../../convert/token.js';
import { loadSelfOrAdmin } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const userGetTokens: Handler<'userGetTokens'> = async (req) => {
  const owner = await loadSelfOrAdmin(req, req.path.username);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.tokens.list(owner.id, page);
  return {
    status: 200,
    body: rows.map((r) => toAccessToken(r)),
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
