// What operators and people reading the API need outside /api/v1: the health check, the spec as JSON,
// the interactive documentation page and Prometheus metrics. None of these is an /api/v1 operation.
import { timingSafeEqual } from 'node:crypto';
import { createReadStream, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../config.js';
import { collectProcessMetrics, registry, webhookOldestPendingAge, webhookQueueDepth } from '../metrics.js';
import { checkDataDirWritable, pendingDeliveries, pingDatabase } from '../services/admin/health.js';
import type { Services } from '../services/index.js';
import { writeError } from '../api/errors.js';
import type { OpenApiDocument } from '../api/spec.js';

type CheckStatus = 'pass' | 'fail';
interface ComponentStatus {
  status: CheckStatus;
  time: string;
}

/** Gitea's `/api/healthz` (the IETF health-check draft): each check's status and time; the reason of a failure is logged. */
async function health(services: Services): Promise<{ status: CheckStatus; description: string; checks: Record<string, ComponentStatus[]> }> {
  // RFC 3339 in UTC to the second, as Gitea writes it.
  const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const run = async (name: string, check: () => Promise<void>): Promise<ComponentStatus[]> => {
    try {
      await check();
      return [{ status: 'pass', time: now() }];
    } catch (err) {
      // As Gitea: the reason goes to the log, not to whoever asks (paths, hosts).
      services.deps.log.error({ err, check: name }, 'health check failed');
      return [{ status: 'fail', time: now() }];
    }
  };
  const [db, dataDir] = await Promise.all([
    run('database:ping', () => pingDatabase(services.deps)),
    run('data-dir:write', () => checkDataDirWritable(services.deps)),
  ]);
  const checks = { 'database:ping': db, 'data-dir:write': dataDir };
  const status = Object.values(checks).every((c) => c[0]!.status === 'pass') ? 'pass' : 'fail';
  return { status, description: 'anvil', checks };
}

/** The spec as JSON, its `servers` naming this server (`<ROOT_URL>api/v1`), serialized once. */
export function specJson(doc: OpenApiDocument, config: Config): string {
  return JSON.stringify({ ...doc, servers: [{ url: `${config.rootUrl}api/v1` }] });
}

/** swagger-ui-dist's folder, found at run time beside the code (the bundle leaves the package in node_modules). */
function swaggerUiFolder(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

const contentTypes: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

// Relative links: the page works behind a proxy that mounts anvil under a sub-path. `v` changes with the
// package version, so the assets can be cached for good.
function docsPage(version: string): string {
  const asset = (name: string) => `swagger/assets/${name}?v=${version}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>anvil API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}">
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="swagger/init.js?v=${version}"></script>
</body>
</html>
`;
}

// The spec declares every way to sign in (Basic, `Authorization: token ...`, Bearer): "Authorize" takes
// one, remembered across reloads, and "Try it out" sends it. No validator: its badge would load an image
// from swagger.io on any public ROOT_URL, and the page loads nothing from outside.
const initScript = `window.ui = SwaggerUIBundle({
  url: '../swagger.v1.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

function bearerMatches(ctx: Context, token: string): boolean {
  const header = ctx.get('Authorization');
  const m = /^Bearer\s+(.+)$/i.exec(header);
  if (!m) return false;
  const given = Buffer.from(m[1]!.trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

export function buildOperateRouter(services: Services, config: Config, doc: OpenApiDocument): Router {
  const router = new Router();
  const spec = specJson(doc, config);
  const named = (operation: string) => async (ctx: Context, next: () => Promise<unknown>) => {
    ctx.state.operationId = operation;
    await next();
  };

  router.get('/api/healthz', named('healthz'), async (ctx) => {
    const report = await health(services);
    ctx.status = report.status === 'pass' ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = JSON.stringify(report, null, 2);
    ctx.type = 'application/health+json';
  });

  const serveSpec = async (ctx: Context) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = spec;
  };
  router.get('/swagger.v1.json', named('swagger.v1.json'), serveSpec);
  router.get('/api/v1/openapi.json', named('openapi.json'), serveSpec);

  const folder = swaggerUiFolder();
  const version = (createRequire(import.meta.url)('swagger-ui-dist/package.json') as { version: string }).version;
  const page = docsPage(version);
  const assets = new Set(readdirSync(folder).filter((f) => extname(f) in contentTypes));
  router.get('/api/swagger', named('swagger'), async (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = page;
  });
  router.get('/api/swagger/init.js', named('swagger'), async (ctx) => {
    ctx.type = contentTypes['.js']!;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = initScript;
  });
  router.get('/api/swagger/assets/:file', named('swagger'), async (ctx, next) => {
    const file = ctx.params.file!;
    if (!assets.has(file)) return next();
    ctx.type = contentTypes[extname(file)]!;
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.body = createReadStream(join(folder, file));
  });

  if (config.metrics.enabled) {
    collectProcessMetrics();
    const token = config.metrics.token;
    router.get('/metrics', named('metrics'), async (ctx) => {
      if (token && !bearerMatches(ctx, token)) {
        ctx.set('WWW-Authenticate', 'Bearer');
        return writeError(ctx, 401, 'unauthorized: METRICS_TOKEN wanted as a Bearer token', `${config.rootUrl}api/swagger`);
      }
      const queue = await pendingDeliveries(services.deps);
      webhookQueueDepth.set(queue.count);
      webhookOldestPendingAge.set(queue.oldestAgeSeconds);
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
    });
  }
  return router;
}
