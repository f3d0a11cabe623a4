import { toTagProtection } from '../../../convert/tagProtection.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetTagProtection: Handler<'repoGetTagProtection'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: toTagProtection(await req.services.protections.tags.get(loaded, req.path.id)) };
};
