import { toPackage } from '../../../convert/package.js';
import { loadPackageOwner } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const listPackages: Handler<'listPackages'> = async (req) => {
  const owner = await loadPackageOwner(req, req.path.owner);
  const page = pageOf(req.query, req.config);
  const { views, total } = await req.services.packages.search(req.auth.actor, owner.id, { type: req.query.type, q: req.query.q, page: page.page, limit: page.limit });
  return { status: 200, body: views.map((v) => toPackage(v, req.auth.actor, req.config)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
