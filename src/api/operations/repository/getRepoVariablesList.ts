import { toActionVariable } from '../../../convert/actionSettings.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { repoRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const getRepoVariablesList: Handler<'getRepoVariablesList'> = async (req) => {
  const scope = await repoRunnerScope(req, req.path);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.actionSettings.listVariables(scope, page);
  return { status: 200, body: rows.map(toActionVariable), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
