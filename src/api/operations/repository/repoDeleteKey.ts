import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoDeleteKey: Handler<'repoDeleteKey'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.keys.deleteDeployKey(loaded, req.path.id);
  return { status: 204 };
};
