import { loadPackageVersion } from '../../load.js';
import type { Handler } from '../../types.js';

export const deletePackage: Handler<'deletePackage'> = async (req) => {
  const { version } = await loadPackageVersion(req, req.path, 'write');
  await req.services.packages.deleteVersion(version, req.auth.actor!);
  return { status: 204 };
};
