import { toPackage } from '../../../convert/package.js';
import { NotFound } from '../../../services/errors.js';
import { loadPackage } from '../../load.js';
import type { Handler } from '../../types.js';

export const getLatestPackageVersion: Handler<'getLatestPackageVersion'> = async (req) => {
  const { pkg } = await loadPackage(req, req.path);
  const version = await req.services.packages.latest(pkg);
  if (!version) throw new NotFound();
  return { status: 200, body: toPackage(await req.services.packages.view(pkg, version, req.auth.actor), req.auth.actor, req.config) };
};
