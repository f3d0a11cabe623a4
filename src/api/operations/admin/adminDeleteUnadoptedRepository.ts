import type { Handler } from '../../types.js';

export const adminDeleteUnadoptedRepository: Handler<'adminDeleteUnadoptedRepository'> = async (req) => {
  await req.services.unadopted.remove(req.path.owner, req.path.repo);
  return { status: 204 };
};
