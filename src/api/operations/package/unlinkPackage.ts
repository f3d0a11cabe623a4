import { loadPackage } from '../../load.js';
import type { Handler } from '../../types.js';

export const unlinkPackage: Handler<'unlinkPackage'> = async (req) => {
  const { pkg } = await loadPackage(req, req.path, 'write');
  await req.services.packages.unlink(pkg);
  return { status: 201 };
};
