import { loadRepo } from '../../load.js';
import { presentDeployKey } from '../../../present/keys.js';
import type { Handler } from '../../types.js';

export const repoCreateKey: Handler<'repoCreateKey'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const b = req.body;
  const entry = await req.services.keys.addDeployKey(loaded, { title: b.title, key: b.key, readOnly: b.read_only ?? undefined });
  return { status: 201, body: presentDeployKey(req, loaded, entry) };
};
