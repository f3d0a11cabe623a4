import { toEmail } from '../../../convert/email.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

export const adminSearchEmails: Handler<'adminSearchEmails'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.emails.search(req.query.q, page);
  return { status: 200, body: rows.map(toEmail), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
