import type { Handler } from '../../types.js';

export const deleteAdminRunner: Handler<'deleteAdminRunner'> = async (req) => {
  await req.services.runners.delete(req.path.runner_id);
  return { status: 204 };
};
