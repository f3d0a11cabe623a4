import { toActionArtifact } from '../../../convert/artifacts.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const getArtifacts: Handler<'getArtifacts'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.artifacts.list(loaded, { name: req.query.name, ...page });
  return {
    status: 200,
    body: { artifacts: rows.map((a) => toActionArtifact(a, req.config, loaded.owner.name, loaded.repo.name)), total_count: total },
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
