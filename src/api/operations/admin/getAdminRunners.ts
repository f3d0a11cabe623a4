import { toActionRunner } from '../../../convert/actions.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const getAdminRunners: Handler<'getAdminRunners'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.runners.list({ disabled: req.query.disabled, ...page });
  return { status: 200, body: { runners: rows.map(toActionRunner), total_count: total }, headers: pageHeaders(req.config, req.koa.url, page, total) };
};
