import { toActionRunner } from '../../../convert/actions.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { userScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const getUserRunners: Handler<'getUserRunners'> = async (req) => {
  const scope = userScope(req);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.runners.list({ disabled: req.query.disabled, scope, ...page });
  return { status: 200, body: { runners: rows.map(toActionRunner), total_count: total }, headers: pageHeaders(req.config, req.koa.url, page, total) };
};
