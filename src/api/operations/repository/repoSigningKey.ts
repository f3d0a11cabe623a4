import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoSigningKey: Handler<'repoSigningKey'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: req.services.gitData.signingKey(loaded), headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
};
