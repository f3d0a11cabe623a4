import { toPackageFile } from '../../../convert/package.js';
import { loadPackageVersion } from '../../load.js';
import type { Handler } from '../../types.js';

export const listPackageFiles: Handler<'listPackageFiles'> = async (req) => {
  const { version } = await loadPackageVersion(req, req.path);
  return { status: 200, body: (await req.services.packages.files(version.id)).map(toPackageFile) };
};
