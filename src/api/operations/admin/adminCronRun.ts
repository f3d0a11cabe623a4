import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

/** Synchronous: answers when the run has ended (or was skipped because the task is running elsewhere). */
export const adminCronRun: Handler<'adminCronRun'> = async (req) => {
  await req.services.cron.run(req.path.task, { doer: actorOf(req) });
  return { status: 204 };
};
