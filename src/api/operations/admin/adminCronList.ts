import { toCron } from '../../../convert/cron.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const adminCronList: Handler<'adminCronList'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const tasks = await req.services.cron.list();
  return {
    status: 200,
    body: tasks.slice(page.offset, page.offset + page.limit).map(toCron),
    headers: pageHeaders(req.config, req.koa.url, page, tasks.length),
  };
};
