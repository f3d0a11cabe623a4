// git's smart HTTP transport beside the API: `/{owner}/{repo}(.git)/info/refs`, `git-upload-pack` and
// `git-receive-pack`. Credentials as for the API; errors are text/plain, which git shows its user, and
// a 401 carries `WWW-Authenticate` so that git asks for credentials.
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { isGitService, type GitService } from '../git/smartHttp.js';
import type { Services } from '../services/index.js';
import type { LoadedRepo } from '../services/repos/repos.js';
import type { UserRow } from '../db/schema/index.js';
import { authenticate } from './auth.js';
import type { RedirectCaller } from '../services/repos/redirects.js';
import { redirectLocation, redirectTo } from './redirects.js';
import { NotFound, Unauthorized } from '../services/errors.js';
import { errorAnswer, HttpError } from './errors.js';
import { textProblem } from './textInput.js';

const noCache = { 'Cache-Control': 'no-cache, max-age=0, must-revalidate', Pragma: 'no-cache', Expires: 'Fri, 01 Jan 1980 00:00:00 GMT' };

async function plainErrors(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (err) {
    if (err instanceof Moved) {
      redirectTo(ctx, err.location);
      return;
    }
    const { status, message, unexpected, headers } = errorAnswer(err);
    if (unexpected) throw err;
    if (headers) ctx.set(headers);
    if (status === 401) ctx.set('WWW-Authenticate', 'Basic realm="anvil"');
    ctx.status = status;
    ctx.set('Content-Type', 'text/plain; charset=utf-8');
    ctx.body = `${message}\n`;
  }
}

/** The path names a renamed or transferred repository (or a renamed owner) by its old name: 307 to the current one. */
class Moved extends Error {
  constructor(readonly location: string) {
    super('moved');
  }
}

/** The repository segment's `.wiki` and `.git` endings, kept as they are in the redirect. */
const GIT_SUFFIX = /(\.wiki)?(\.git)?$/i;

/** The request body, decompressed as it streams when git sent it gzipped (fetch negotiations). */
function requestBody(ctx: Context): Readable {
  const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (!encoding || encoding === 'identity') return ctx.req;
  if (encoding !== 'gzip' && encoding !== 'x-gzip') throw new HttpError(415, `unsupported Content-Encoding: ${encoding}`);
  const gunzip = createGunzip();
  // An error on either side destroys both; the git process reading the result is stopped by its pipe.
  pipeline(ctx.req, gunzip, () => {});
  return gunzip;
}

export function buildGitRouter(services: Services, log: Logger): Router {
  const router = new Router();

  /** The repository of the running task whose token the Basic credentials carry (as password or user name). */
  async function taskTokenRepo(ctx: Context): Promise<number | undefined> {
    const [scheme = '', value = ''] = ctx.get('Authorization').trim().split(/\s+/);
    if (scheme.toLowerCase() !== 'basic') return undefined;
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    for (const candidate of [decoded.slice(colon + 1), decoded.slice(0, colon)]) {
      const repoId = await services.runners.taskRepo(candidate);
      if (repoId !== undefined) return repoId;
    }
    return undefined;
  }

  async function open(ctx: Context, service: GitService): Promise<{ loaded: LoadedRepo; actor: UserRow | null }> {
    const name = String(ctx.params.repo).replace(/\.git$/i, '');
    // A name that is not storable text (NUL, a lone surrogate) names no repository.
    if (textProblem({ owner: ctx.params.owner, name })) throw new HttpError(404, 'Repository not found');
    // A running Actions task's token (actions/checkout sends it as the Basic password) fetches its own
    // repository. Looked up before the account's credentials, so that a task's many fetches never count
    // as failed sign-ins of the user name they carry.
    const taskRepoId = await taskTokenRepo(ctx);
    if (taskRepoId !== undefined) {
      const loaded = await movedOr(ctx, { actor: null, task: { repoId: taskRepoId } }, () =>
        services.gitTransport.openForTask(String(ctx.params.owner), name, taskRepoId, service),
      );
      return { loaded, actor: null };
    }
    const auth = await authenticate(ctx, services);
    const caller = { actor: auth.actor, tokenScopes: auth.method === 'token' ? auth.scopes : undefined };
    return { loaded: await movedOr(ctx, auth, () => services.gitTransport.open(String(ctx.params.owner), name, caller, service)), actor: auth.actor };
  }

  /**
   * Opens the repository; when the path names none the caller may reach, but an old name of one the
   * caller may see, a redirect to the current name instead (Gitea's RedirectToRepo in httpBase; git follows
   * it on `info/refs` and uses the new URL from then on). An anonymous caller is asked for credentials
   * first when the repository is not public, as for any repository it cannot read.
   */
  async function movedOr<T>(ctx: Context, caller: RedirectCaller, openIt: () => Promise<T>): Promise<T> {
    try {
      return await openIt();
    } catch (err) {
      if (!(err instanceof NotFound || err instanceof Unauthorized)) throw err;
      const location = await redirectLocation(ctx, services, caller, { repo: [1, 2] }, { nameSuffix: GIT_SUFFIX });
      if (location) throw new Moved(location);
      throw err;
    }
  }

  const streamOptions = (ctx: Context) => ({
    gitProtocol: ctx.get('Git-Protocol') || undefined,
    onError: (err: Error) => log.warn({ err, method: ctx.method, url: ctx.path }, 'git transport'),
  });

  router.get('/:owner/:repo/info/refs', plainErrors, async (ctx) => {
    const service = ctx.query.service;
    if (!isGitService(service)) throw new HttpError(403, 'Unsupported service: only smart HTTP (git-upload-pack, git-receive-pack) is served');
    const { loaded } = await open(ctx, service);
    ctx.set(noCache);
    ctx.set('Content-Type', `application/x-${service}-advertisement`);
    ctx.body = services.gitTransport.advertise(loaded, service, streamOptions(ctx));
  });

  for (const service of ['git-upload-pack', 'git-receive-pack'] as const) {
    router.post(`/:owner/:repo/${service}`, plainErrors, async (ctx) => {
      const { loaded, actor } = await open(ctx, service);
      const type = (ctx.get('Content-Type').split(';')[0] ?? '').trim().toLowerCase();
      if (type !== `application/x-${service}-request`) throw new HttpError(415, `Content-Type must be application/x-${service}-request`);
      const output = await services.gitTransport.rpc(loaded, service, requestBody(ctx), streamOptions(ctx), actor);
      ctx.set(noCache);
      ctx.set('Content-Type', `application/x-${service}-result`);
      ctx.body = output;
    });
  }
  return router;
}
