// `GET /avatars/{id}`: the picture behind every account's avatar_url, outside /api/v1. Public, as in
// Gitea (no credentials read, whatever the account's visibility); an unknown id is an empty 404.
// `?size=` sizes the generated identicon (clamped); an uploaded picture is served as it was sent.
// `GET /repo-avatars/{key}`: a repository's uploaded avatar (Gitea's path), likewise public.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Services } from '../services/index.js';
import { identiconSize } from '../services/users/identicon.js';
import type { AvatarImage } from '../services/users/avatars.js';

/** Browsers may reuse a picture for five minutes, then revalidate with If-None-Match. */
export const AVATAR_CACHE_CONTROL = 'public, max-age=300';

export function buildAvatarRouter(services: Services): Router {
  const router = new Router();
  router.get('/avatars/:id', async (ctx, next) => {
    const raw = String(ctx.params.id);
    const image = /^[1-9]\d{0,15}$/.test(raw) ? await services.avatars.image(Number(raw), identiconSize(ctx.query.size)) : undefined;
    if (!image) return next();
    answer(ctx, image);
  });
  // A repository's uploaded avatar (`avatar_url`), by its key; public as in Gitea (the key is unguessable).
  router.get('/repo-avatars/:key', async (ctx, next) => {
    const image = await services.repoAvatars.image(String(ctx.params.key));
    if (!image) return next();
    answer(ctx, image);
  });
  return router;
}

function answer(ctx: Context, image: AvatarImage): void {
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
}
