// Gitea's Actions runner protocol under /api/actions/ (Connect): requests there go to the handler of
// transport/actionsRpc.ts, loaded with its libraries on the first one.
import type { Middleware } from 'koa';
import type { Services } from '../services/index.js';

export const actionsPrefix = '/api/actions';

/** The protocol as Koa middleware: requests under /api/actions/ go to the Connect handler. */
export function actionsMiddleware(services: Services): Middleware {
  let handler: Promise<ReturnType<typeof import('./actionsRpc.js').connectHandler>> | undefined;
  return async (ctx, next) => {
    if (!ctx.path.startsWith(`${actionsPrefix}/`) || !services.deps.config.actions.enabled) return next();
    handler ??= import('./actionsRpc.js').then((m) => m.connectHandler(services, actionsPrefix));
    const serve = await handler;
    ctx.respond = false;
    await new Promise<void>((resolve) => {
      ctx.res.once('close', resolve);
      ctx.res.once('finish', resolve);
      serve(ctx.req, ctx.res);
    });
    ctx.status = ctx.res.statusCode;
  };
}

