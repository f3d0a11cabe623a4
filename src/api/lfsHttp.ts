// The Git LFS server beside git's smart HTTP: `/{owner}/{repo}(.git)/info/lfs/…` as Gitea routes it. The
// batch API (basic transfer), object upload/download/verify and locks. Bodies and answers are
// `application/vnd.git-lfs+json`; errors are `{"message": …}` (git-lfs shows the message), and a 401
// carries `LFS-Authenticate` so that git-lfs asks git's credential helper. Credentials as for git over
// HTTP, or the `Bearer lfs1.…` token git-lfs-authenticate handed out over SSH.
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { Services } from '../services/index.js';
import { LockExists, lfsKey, type LfsAccess, type LfsCaller, type LfsOperation, type LockView } from '../services/lfs/lfs.js';
import { authenticate } from './auth.js';
import { errorAnswer, HttpError } from './errors.js';
import { textProblem } from './textInput.js';

const lfsJson = 'application/vnd.git-lfs+json';

function lockJson(v: LockView) {
  return { id: String(v.lock.id), path: v.lock.path, locked_at: v.lock.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'), owner: { name: v.ownerName } };
}

async function lfsErrors(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (err) {
    const { status, message, unexpected, headers } = errorAnswer(err);
    if (unexpected) throw err;
    if (headers) ctx.set(headers);
    if (status === 401) ctx.set('LFS-Authenticate', 'Basic realm="anvil-lfs"');
    ctx.status = status;
    ctx.type = lfsJson;
    ctx.body = err instanceof LockExists && err.existing ? { lock: lockJson(err.existing), message } : { message: message || 'Not found' };
  }
}

/** The request's JSON body, at most `limit` bytes. */
async function jsonBody(ctx: Context, limit: number): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const chunk of ctx.req) {
    n += (chunk as Buffer).length;
    if (n > limit) throw new HttpError(413, 'request body too large');
    parts.push(chunk as Buffer);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}');
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new HttpError(400, 'the body must be a JSON object');
  if (textProblem(value)) throw new HttpError(422, 'the body holds text that cannot be stored');
  return value as Record<string, unknown>;
}

export function buildLfsRouter(services: Services, log: Logger): Router {
  const router = new Router();
  const { config } = services.deps;

  async function who(ctx: Context): Promise<LfsCaller> {
    const [scheme = '', value = ''] = ctx.get('Authorization').trim().split(/\s+/);
    if (scheme.toLowerCase() === 'bearer' && value.startsWith('lfs1.')) return { kind: 'token', token: value };
    const auth = await authenticate(ctx, services);
    return { kind: 'http', caller: { actor: auth.actor, tokenScopes: auth.method === 'token' ? auth.scopes : undefined } };
  }

  async function open(ctx: Context, op: LfsOperation): Promise<LfsAccess> {
    const name = String(ctx.params.repo).replace(/\.git$/i, '');
    if (textProblem({ owner: ctx.params.owner, name })) throw new HttpError(404, 'Repository not found');
    return services.lfs.open(String(ctx.params.owner), name, await who(ctx), op);
  }

  /** Where this repository's LFS server is, for the actions' hrefs. */
  const base = (ctx: Context) => `${config.rootUrl}${encodeURIComponent(String(ctx.params.owner))}/${encodeURIComponent(String(ctx.params.repo).replace(/\.git$/i, ''))}.git/info/lfs`;

  const prefix = '/:owner/:repo/info/lfs';

  router.post(`${prefix}/objects/batch`, lfsErrors, async (ctx) => {
    const body = await jsonBody(ctx, config.bodyLimitBytes);
    const op = body.operation;
    if (op !== 'upload' && op !== 'download') throw new HttpError(422, 'operation must be upload or download');
    const transfers = body.transfers;
    if (Array.isArray(transfers) && transfers.length && !transfers.includes('basic')) throw new HttpError(422, 'only the basic transfer adapter is supported');
    if (body.hash_algo !== undefined && body.hash_algo !== 'sha256') throw new HttpError(409, 'only sha256 is supported');
    if (!Array.isArray(body.objects)) throw new HttpError(422, 'objects must be a list');
    const access = await open(ctx, op);
    const results = await services.lfs.batch(access, op, body.objects as { oid: unknown; size: unknown }[]);
    const href = base(ctx);
    // The actions carry the credentials the client used (Gitea's way), so that it sends them again.
    const header: Record<string, string> = {};
    const authorization = ctx.get('Authorization');
    if (authorization) header.Authorization = authorization;
    const objects = [];
    for (const r of results) {
      if (r.error) {
        objects.push({ oid: r.oid, size: r.size, error: r.error });
        continue;
      }
      if (op === 'download') {
        const direct = await services.lfs.store.directUrl(lfsKey(r.oid), { filename: r.oid });
        objects.push({
          oid: r.oid, size: r.size, authenticated: true,
          actions: { download: direct ? { href: direct } : { href: `${href}/objects/${r.oid}`, header: { ...header, Accept: 'application/octet-stream' } } },
        });
      } else if (r.exists) {
        objects.push({ oid: r.oid, size: r.size, authenticated: true });
      } else {
        objects.push({
          oid: r.oid, size: r.size, authenticated: true,
          actions: {
            upload: { href: `${href}/objects/${r.oid}/${r.size}`, header: { ...header, 'Content-Type': 'application/octet-stream' } },
            verify: { href: `${href}/verify`, header: { ...header, Accept: lfsJson } },
          },
        });
      }
    }
    ctx.type = lfsJson;
    ctx.body = { transfer: 'basic', objects, hash_algo: 'sha256' };
  });

  router.put(`${prefix}/objects/:oid/:size`, lfsErrors, async (ctx) => {
    const size = /^\d{1,16}$/.test(String(ctx.params.size)) ? Number(ctx.params.size) : NaN;
    const access = await open(ctx, 'upload');
    const declared = ctx.get('Content-Length');
    if (declared && Number.isFinite(size) && Number(declared) !== size) throw new HttpError(422, `Object is ${declared} bytes, not ${size}`);
    await services.lfs.upload(access, String(ctx.params.oid), size, ctx.req);
    ctx.status = 200;
    ctx.type = lfsJson;
    ctx.body = '';
  });

  const download = async (ctx: Context) => {
    const access = await open(ctx, 'download');
    const range = /^bytes=(\d{1,16})-(\d{0,16})$/.exec(ctx.get('Range').trim());
    const start = range ? Number(range[1]) : undefined;
    const end = range && range[2] ? Number(range[2]) : undefined;
    const known = await services.lfs.meta(access.loaded, String(ctx.params.oid));
    if (!known) throw new HttpError(404, '');
    if (start !== undefined && (start >= known.size || (end !== undefined && end < start))) {
      ctx.status = 416;
      ctx.set('Content-Range', `bytes */${known.size}`);
      return;
    }
    const object = await services.lfs.download(access, known.oid, start !== undefined ? { start, end: Math.min(end ?? known.size - 1, known.size - 1) } : undefined);
    if (object.redirect) {
      ctx.redirect(object.redirect);
      return;
    }
    ctx.type = 'application/octet-stream';
    if (start !== undefined) {
      const last = Math.min(end ?? known.size - 1, known.size - 1);
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${start}-${last}/${known.size}`);
      ctx.length = last - start + 1;
    } else ctx.length = known.size;
    ctx.body = object.stream;
    object.stream!.on('error', (err) => log.warn({ err, oid: known.oid }, 'LFS download'));
  };
  router.get(`${prefix}/objects/:oid`, lfsErrors, download);
  router.get(`${prefix}/objects/:oid/:filename`, lfsErrors, download);

  router.post(`${prefix}/verify`, lfsErrors, async (ctx) => {
    const body = await jsonBody(ctx, 64 * 1024);
    const access = await open(ctx, 'upload');
    await services.lfs.verify(access, body.oid, body.size);
    ctx.type = lfsJson;
    ctx.body = { message: 'OK' };
  });

  router.get(`${prefix}/locks`, lfsErrors, async (ctx) => {
    const access = await open(ctx, 'download');
    const q = (k: string) => (typeof ctx.query[k] === 'string' ? (ctx.query[k] as string) : undefined);
    const { locks, nextCursor } = await services.lfs.listLocks(access, { id: q('id'), path: q('path'), cursor: q('cursor'), limit: q('limit') });
    ctx.type = lfsJson;
    ctx.body = { locks: locks.map(lockJson), ...(nextCursor ? { next_cursor: nextCursor } : {}) };
  });

  router.post(`${prefix}/locks`, lfsErrors, async (ctx) => {
    const body = await jsonBody(ctx, 64 * 1024);
    const access = await open(ctx, 'upload');
    const lock = await services.lfs.createLock(access, body.path);
    ctx.status = 201;
    ctx.type = lfsJson;
    ctx.body = { lock: lockJson(lock) };
  });

  router.post(`${prefix}/locks/verify`, lfsErrors, async (ctx) => {
    const body = await jsonBody(ctx, 64 * 1024);
    const access = await open(ctx, 'upload');
    const r = await services.lfs.verifyLocks(access, body.cursor, body.limit);
    ctx.type = lfsJson;
    ctx.body = { ours: r.ours.map(lockJson), theirs: r.theirs.map(lockJson), ...(r.nextCursor ? { next_cursor: r.nextCursor } : {}) };
  });

  router.post(`${prefix}/locks/:id/unlock`, lfsErrors, async (ctx) => {
    const body = await jsonBody(ctx, 64 * 1024);
    const access = await open(ctx, 'upload');
    const lock = await services.lfs.unlock(access, String(ctx.params.id), body.force === true);
    ctx.type = lfsJson;
    ctx.body = { lock: lockJson(lock) };
  });

  return router;
}
