import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const repoGetLicenses: Handler<'repoGetLicenses'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: await req.services.contents.licenses(loaded) };
};
