import { toActionTask } from '../../../convert/actions.js';
import { loadRepo } from '../../load.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const ListActionTasks: Handler<'ListActionTasks'> = async (req) => {
  const loaded = await loadRepo(req, req.path.owner, req.path.repo);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.repoActions.tasks(loaded, page);
  return {
    status: 200,
    body: { workflow_runs: rows.map((v) => toActionTask(v, loaded.owner.name, loaded.repo.name, req.config)), total_count: total },
    headers: pageHeaders(req.config, req.koa.url, page, total),
  };
};
