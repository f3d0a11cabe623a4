import { toEmail } from '../../../convert/email.js';
import { pageHeaders, pageOf } from '../../pagination.js';
import type { Handler } from '../../types.js';

/** Every address; a `q` here is ignored, as in Gitea (adminSearchEmails filters). */
export const adminGetAllEmails: Handler<'adminGetAllEmails'> = async (req) => {
  const page = pageOf(req.query, req.config);
  const { rows, total } = await req.services.emails.search(undefined, page);
  return { status: 200, body: rows.map(toEmail), headers: pageHeaders(req.config, req.koa.url, page, total) };
};
