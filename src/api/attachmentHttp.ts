// `GET /attachments/{uuid}`: the file behind an attachment's browser_download_url, outside /api/v1 as in
// Gitea. Same credentials as the API (Gitea accepts Basic and tokens on this path); what the caller may
// not read is an empty 404. Always served as a download, never rendered: the bytes are the uploader's.
import Router from '@koa/router';
import type { Services } from '../services/index.js';
import { authenticate, authorize } from './auth.js';

/** RFC 6266: an ASCII fallback, then the exact name in UTF-8. */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

export function buildAttachmentRouter(services: Services): Router {
  const router = new Router();
  router.get('/attachments/:uuid', async (ctx) => {
    const auth = await authenticate(ctx, services);
    authorize(auth, { anonymous: true, basicOnly: false, scopes: ['issue'], write: false });
    const file = await services.attachments.download(String(ctx.params.uuid), auth.actor, { count: ctx.method === 'GET' });
    if (file.redirect) {
      // SERVE_DIRECT: the object store serves the bytes (Gitea answers 303 See Other there).
      ctx.status = 303;
      ctx.redirect(file.redirect);
      return;
    }
    ctx.set('Content-Disposition', contentDisposition(file.attachment.name));
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'private, max-age=0, must-revalidate');
    ctx.type = 'application/octet-stream';
    ctx.body = file.stream;
    ctx.length = file.size;
  });
  return router;
}
