import { toAttachment } from '../../../convert/attachment.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const repoListReleaseAttachments: Handler<'repoListReleaseAttachments'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.releaseAssets.list(loaded, req.path.id, page);
  return { status: 200, body: rows.map((a) => toAttachment(a, req.config)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
