// buildApp: the Koa application around the spec's routes. No I/O of its own beyond what it is given.
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { errorAnswer, HttpError, writeError } from './api/errors.js';
import { buildAttachmentRouter } from './api/attachmentHttp.js';
import { buildGitRouter } from './api/gitHttp.js';
import { buildLfsRouter } from './api/lfsHttp.js';
import { buildPackageRouter } from './api/packagesHttp.js';
import { buildRouter } from './api/router.js';
import { loadSpec, type OpenApiDocument } from './api/spec.js';
import type { Services } from './services/index.js';
import { actionsMiddleware } from './transport/actions.js';
import { artifactMiddleware } from './transport/artifacts.js';
import { pipelineArtifactMiddleware } from './transport/pipelineArtifacts.js';
import { buildAvatarRouter } from './web/avatars.js';
import { requestDuration } from './metrics.js';
import { buildOperateRouter } from './web/operate.js';
import { buildPages } from './web/pages/router.js';
import { buildSettings } from './web/account/settings.js';
import { buildPackageSettings } from './web/account/packageSettings.js';
import { buildSignIn } from './web/account/signin.js';
import { buildInteractions } from './web/oauth/interaction.js';
import { buildProvider, providerMiddleware } from './web/oauth/provider.js';

export interface AppDeps {
  config: Config;
  services: Services;
  log: Logger;
  doc?: OpenApiDocument;
  /** Requests in flight, for a shutdown that waits for them (main.ts). */
  inFlight?: InFlight;
}

/** Counts requests from arrival to the end of their middleware, so shutdown closes the database after the last. */
export class InFlight {
  active = 0;
  /** Set when shutting down: answers carry `Connection: close`, so keep-alive clients go away. */
  draining = false;
  private waiters: Array<() => void> = [];

  enter(): void {
    this.active++;
  }

  leave(): void {
    if (--this.active === 0) for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves when no request is in flight, or after `timeoutMs` (false then). */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.active === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

export async function buildApp({ config, services, log, doc = loadSpec(), inFlight = new InFlight() }: AppDeps): Promise<Koa> {
  const app = new Koa({ proxy: true });
  // What reaches Koa's own handler are connection failures after the answer began (a client that hangs
  // up mid-upload or mid-download): worth a log line, not Koa's console.error.
  app.on('error', (err: Error, ctx?: { method?: string; path?: string }) => log.warn({ err, method: ctx?.method, url: ctx?.path }, 'connection error'));
  const swaggerUrl = `${config.rootUrl}api/swagger`;
  // Before buildRouter: the validator it builds may rewrite the document it is given.
  const operate = buildOperateRouter(services, config, doc);
  const router = await buildRouter(doc, services, config);
  // The OAuth2 provider (its keys read, or made on a first start, and oidc-provider set up) is built by
  // the first request that needs it, not before the server answers (#41); a failed build is tried again.
  let built: Promise<Provider> | undefined;
  const provider = () => (built ??= buildProvider(services, config, log).catch((err) => {
    built = undefined;
    throw err;
  }));

  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    inFlight.enter();
    if (inFlight.draining) ctx.set('Connection', 'close');
    const id = ctx.get('X-Request-Id') || randomUUID();
    ctx.set('X-Request-Id', id);
    ctx.set('Access-Control-Expose-Headers', 'X-Total-Count, Link');
    try {
      await next();
      // koa-router's allowedMethods answers 405 and 501 (with `Allow`) but without a body.
      if ((ctx.status === 405 || ctx.status === 501) && ctx.body == null) writeError(ctx, ctx.status, ctx.message, swaggerUrl);
    } catch (err) {
      // http-errors thrown by middleware carry `status` and `expose`.
      const e = err as { status?: number; expose?: boolean; message?: string };
      const known = typeof e?.status === 'number' && e.expose ? new HttpError(e.status, e.message ?? '') : err;
      const { status, message, unexpected, headers } = errorAnswer(known);
      if (unexpected) log.error({ err, reqId: id, method: ctx.method, url: ctx.url }, 'request failed');
      if (headers) ctx.set(headers);
      writeError(ctx, status, message, swaggerUrl);
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The router names the operation (the spec's operationId, or a page's name in src/web) and the
      // signed-in actor; anything else is `unmatched`, so the metric's labels stay a small set.
      const operation: string = ctx.state.operationId ?? 'unmatched';
      requestDuration.observe({ operation, status: ctx.status }, ms / 1000);
      // The whole URL, as Gitea's access log has it: its credentials are masked by the logger (src/log.ts).
      log.info(
        { reqId: id, method: ctx.method, url: ctx.url, operationId: operation, status: ctx.status, ms: Math.round(ms * 10) / 10, actorId: ctx.state.actorId },
        'request',
      );
      inFlight.leave();
    }
  });
  // The Actions runner protocol (Connect), outside /api/v1.
  app.use(actionsMiddleware(services));
  app.use(artifactMiddleware(services));
  app.use(pipelineArtifactMiddleware(services));
  // Health check, spec, docs page and metrics (src/web), before /api/v1 so its 405s leave them alone.
  app.use(operate.routes());
  // The OAuth2/OpenID Connect provider at Gitea's paths, its sign-in and consent steps, the sign-in,
  // two-factor, security and package settings pages (src/web/oauth, src/web/account; docs/oauth2.md, docs/web.md).
  app.use(providerMiddleware(provider, config));
  if (config.oauth2.enabled) app.use(buildInteractions(provider, services, config).routes());
  app.use(buildSignIn(services, config).routes());
  app.use(buildSettings(services, config).routes());
  app.use(buildPackageSettings(services, config).routes());
  app.use(router.routes());
  app.use(router.allowedMethods());
  // Attachment downloads (browser_download_url), outside /api/v1.
  app.use(buildAttachmentRouter(services).routes());
  // Avatars (avatar_url), outside /api/v1.
  app.use(buildAvatarRouter(services).routes());
  // The package registry's formats (src/api/packages), outside /api/v1.
  app.use(buildPackageRouter(services).routes());
  // git clone/push over HTTP, outside /api/v1.
  app.use(buildLfsRouter(services, log).routes());
  app.use(buildGitRouter(services, log).routes());
  // The pages behind html_url (src/web/pages), last: they answer only what no router above did.
  app.use(buildPages(services, config));
  app.use(async (ctx) => {
    // Nothing matched: an empty 404, as for anything the caller may not see.
    writeError(ctx, 404, '', swaggerUrl);
  });
  return app;
}
