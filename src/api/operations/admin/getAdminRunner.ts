import { toActionRunner } from '../../../convert/actions.js';
import type { Handler } from '../../types.js';

export const getAdminRunner: Handler<'getAdminRunner'> = async (req) => {
  return { status: 200, body: toActionRunner(await req.services.runners.get(req.path.runner_id)) };
};
