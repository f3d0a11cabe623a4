import type { Handler } from '../../types.js';
import { loadSelfOrAdmin } from '../../load.js';

export const userDeleteAccessToken: Handler<'userDeleteAccessToken'> = async (req) => {
  const owner = await loadSelfOrAdmin(req, req.path.username);
  await req.services.tokens.delete(owner.id, req.path.token);
  return { status: 204 };
};
