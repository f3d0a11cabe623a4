import { toActionRunner } from '../../../convert/actions.js';
import type { Handler } from '../../types.js';

export const updateAdminRunner: Handler<'updateAdminRunner'> = async (req) => {
  return { status: 200, body: toActionRunner(await req.services.runners.setDisabled(req.path.runner_id, req.body.disabled)) };
};
