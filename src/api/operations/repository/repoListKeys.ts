import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { presentDeployKey } from '../../../present/keys.js';
import type { Handler } from '../../types.js';

export const repoListKeys: Handler<'repoListKeys'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.keys.listDeployKeys(loaded, { keyId: req.query.key_id, fingerprint: req.query.fingerprint }, page);
  return { status: 200, body: rows.map((e) => presentDeployKey(req, loaded, e)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
