// The package registry's format routes (`/api/packages/{owner}/{type}/…`, outside /api/v1 as in Gitea):
// each format in src/api/packages/. Errors are plain text (Gitea's format routes answer their message),
// and a 401 carries `WWW-Authenticate` so that clients send their credentials.
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Services } from '../services/index.js';
import { errorAnswer } from './errors.js';
import { containerErrors, containerRoutes } from './packages/container.js';
import { genericRoutes } from './packages/generic.js';
import { npmRoutes } from './packages/npm.js';
import { pypiRoutes } from './packages/pypi.js';

async function packageErrors(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (err) {
    const { status, message, unexpected, headers } = errorAnswer(err);
    if (unexpected) throw err;
    if (headers) ctx.set(headers);
    if (status === 401) ctx.set('WWW-Authenticate', 'Basic realm="Gitea Package API"');
    ctx.status = status;
    ctx.type = 'text/plain';
    ctx.body = status === 404 ? '' : `${message}\n`;
  }
}

export function buildPackageRouter(services: Services): Router {
  const router = new Router();
  router.use('/api/packages', packageErrors);
  genericRoutes(router, services);
  npmRoutes(router, services);
  pypiRoutes(router, services);
  // The container registry (OCI distribution) at /v2, with its own error shape.
  router.use(['/v2', '/v2/{*rest}'], containerErrors(services));
  containerRoutes(router, services);
  return router;
}
