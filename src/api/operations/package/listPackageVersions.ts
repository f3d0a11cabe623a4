import { toPackage } from '../../../convert/package.js';
import { loadPackage } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const listPackageVersions: Handler<'listPackageVersions'> = async (req) => {
  const { owner, pkg } = await loadPackage(req, req.path);
  const page = pageOf(req.query, req.config);
  const { views, total } = await req.services.packages.search(req.auth.actor, owner.id, { packageId: pkg.id, page: page.page, limit: page.limit });
  return { status: 200, body: views.map((v) => toPackage(v, req.auth.actor, req.config)), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
