// `GET /avatars/{id}`: the picture behind every account's avatar_url, outside /api/v1. Public, as in
// Gitea (no credentials read, whatever the account's visibility); an unknown id is an empty 404.
// `?size=` sizes the generated identicon (clamped); an uploaded picture is served as it was sent.
import Router from '@koa/router';
import type { Services } from '../services/index.js';
import { identiconSize } from '../services/users/identicon.js';

/** Browsers may reuse a picture for five minutes, then revalidate with If-None-Match. */
export const AVATAR_CACHE_CONTROL = 'public, max-age=300';

export function buildAvatarRouter(services: Services): Router {
  const router = new Router();
  router.get('/avatars/:id', async (ctx, next) => {
    const raw = String(ctx.params.id);
    const image = /^[1-9]\d{0,15}$/.test(raw) ? await services.avatars.image(Number(raw), identiconSize(ctx.query.size)) : undefined;
    if (!image) return next();
    ctx.set('ETag', image.etag);
    ctx.set('Cache-Control', AVATAR_CACHE_CONTROL);
    ctx.set('X-Content-Type-Options', 'nosniff');
    const seen = ctx.get('If-None-Match');
    if (seen && seen.split(',').some((tag) => tag.trim().replace(/^W\//, '') === image.etag || tag.trim() === '*')) {
      ctx.status = 304;
      return;
    }
    ctx.type = image.type;
    ctx.body = image.bytes;
  });
  return router;
}
