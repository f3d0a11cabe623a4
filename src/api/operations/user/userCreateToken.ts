import { toAccessToken } from '../../../convert/token.js';
import type { Handler } from '../../types.js';
import { loadSelfOrAdmin } from '../../load.js';

export const userCreateToken: Handler<'userCreateToken'> = async (req) => {
  const owner = await loadSelfOrAdmin(req, req.path.username);
  const { row, token } = await req.services.tokens.create(owner.id, req.body.name, req.body.scopes);
  return { status: 201, body: toAccessToken(row, token) };
};
