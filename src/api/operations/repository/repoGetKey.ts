import { loadRepo } from '../../load.js';
import { presentDeployKey } from '../../../present/keys.js';
import type { Handler } from '../../types.js';

export const repoGetKey: Handler<'repoGetKey'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  return { status: 200, body: presentDeployKey(req, loaded, await req.services.keys.deployKey(loaded, req.path.id)) };
};
