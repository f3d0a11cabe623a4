import { loadRepo } from '../../load.js';
import type { Handler } from '../../types.js';

export const getWorkflowRunLogs: Handler<'getWorkflowRunLogs'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const { stream, name } = await req.services.repoActions.runLogs(loaded, req.path.run);
  return {
    status: 200,
    // Made as Koa reads it: never held whole.
    body: stream as unknown as Buffer,
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
    },
  };
};
