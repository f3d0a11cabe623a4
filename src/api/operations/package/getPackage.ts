import { toPackage } from '../../../convert/package.js';
import { loadPackageVersion } from '../../load.js';
import type { Handler } from '../../types.js';

export const getPackage: Handler<'getPackage'> = async (req) => {
  const { pkg, version } = await loadPackageVersion(req, req.path);
  return { status: 200, body: toPackage(await req.services.packages.view(pkg, version, req.auth.actor), req.auth.actor, req.config) };
};
