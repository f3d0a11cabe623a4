import { toSecret } from '../../../convert/actionSettings.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import { orgRunnerScope } from '../../runnerScope.js';
import type { Handler } from '../../types.js';

export const orgListActionsSecrets: Handler<'orgListActionsSecrets'> = async (req) => {
  const scope = await orgRunnerScope(req, req.path);
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.actionSettings.listSecrets(scope, page);
  return { status: 200, body: rows.map(toSecret), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
