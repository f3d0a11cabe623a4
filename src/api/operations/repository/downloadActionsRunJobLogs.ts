import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const downloadActionsRunJobLogs: Handler<'downloadActionsRunJobLogs'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const log = await req.services.repoActions.jobLog(loaded, req.path.job_id);
  // Streamed from the database or storage as Koa reads it: never held whole.
  return { status: 200, body: log as unknown as string, headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
};
