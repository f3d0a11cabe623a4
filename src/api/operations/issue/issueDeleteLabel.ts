import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const issueDeleteLabel: Handler<'issueDeleteLabel'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  await req.services.labels.delete(loaded, req.path.id);
  return { status: 204 };
};
