import { toTagProtection } from '../../../convert/tagProtection.js';
import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoListTagProtection: Handler<'repoListTagProtection'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: (await req.services.protections.tags.list(loaded)).map(toTagProtection) };
};
