// Gitea's container registry at `/v2/` (OCI distribution), driven by skopeo, docker and podman:
//   GET  /v2/                                         200 to a caller with credentials, else 401 with the challenge
//   GET  /v2/token                                    a bearer token (Basic credentials, or none: anonymous)
//   POST /v2/{owner}/{image}/blobs/uploads/           start an upload (202); `?digest=` monolithic (201); `?mount=&from=` (201)
//   GET|PATCH|PUT|DELETE …/blobs/uploads/{uuid}       status, a chunk, finish with `?digest=`, cancel
//   HEAD|GET|DELETE …/blobs/{digest}
//   HEAD|GET|PUT|DELETE …/manifests/{tag or digest}
//   GET  …/tags/list?n=&last=
// Errors are `{"errors":[{"code","message"}]}`; a 401 carries `WWW-Authenticate: Bearer realm=…/v2/token`.
// As in Gitea, every route but the token's needs credentials (the anonymous token counts as credentials).
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { UserRow } from '../../db/schema/index.js';
import { anonymous, type Auth } from '../../permissions/caller.js';
import { Unauthorized } from '../../services/errors.js';
import type { Services } from '../../services/index.js';
import { ContainerRegistry, imageShape, maxManifestSize, nameUnknown, RegistryError, blobUnknown, manifestUnknown, digestShape } from '../../services/packages/container.js';
import { authenticate, authorize } from '../auth.js';
import { errorAnswer } from '../errors.js';
import { readTextBody } from '../body.js';

const codeOf: Record<number, string> = { 400: 'BAD_REQUEST', 401: 'UNAUTHORIZED', 403: 'DENIED', 404: 'NAME_UNKNOWN', 405: 'UNSUPPORTED', 409: 'DENIED', 413: 'SIZE_INVALID', 416: 'BLOB_UPLOAD_INVALID', 422: 'BAD_REQUEST' };

/** A caller who sent credentials (`anonymousToken`: the anonymous bearer token of /v2/token). */
interface RegistryCaller {
  auth: Auth;
  credentials: boolean;
}

function challenge(services: Services): string {
  return `Bearer realm="${services.deps.config.rootUrl}v2/token",service="container_registry",scope="*"`;
}

export function containerErrors(services: Services) {
  return async (ctx: Context, next: Next): Promise<void> => {
    ctx.set('Docker-Distribution-Api-Version', 'registry/2.0');
    try {
      await next();
    } catch (err) {
      let status: number;
      let code: string;
      let message: string;
      if (err instanceof RegistryError) {
        ({ status, code, message } = err);
      } else {
        const answer = errorAnswer(err);
        if (answer.unexpected) throw err;
        if (answer.headers) ctx.set(answer.headers);
        status = answer.status;
        message = answer.message;
        code = codeOf[status] ?? 'UNKNOWN';
      }
      if (status === 401) ctx.set('WWW-Authenticate', challenge(services));
      ctx.status = status;
      ctx.body = { errors: [{ code, message, detail: null }] };
    }
  };
}

async function caller(ctx: Context, services: Services): Promise<RegistryCaller> {
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'));
  if (bearer && ContainerRegistry.looksLikeToken(bearer[1]!)) {
    const held = await services.containers.verifyToken(bearer[1]!);
    if (!held) throw new Unauthorized('invalid or expired token');
    if (held.userId === 0) return { auth: anonymous, credentials: true };
    const user = await services.users.byId(held.userId);
    if (!user || user.prohibitLogin || !user.isActive) throw new Unauthorized('invalid or expired token');
    return { auth: { actor: user, signedIn: user, method: held.scopes ? 'token' : 'password', scopes: held.scopes }, credentials: true };
  }
  const auth = await authenticate(ctx, services);
  return { auth, credentials: auth.method !== 'none' };
}

/** The owner and image of the path, with the access the route needs checked. */
async function imageAccess(ctx: Context, services: Services, who: RegistryCaller, ownerName: string, image: string, need: 'read' | 'write'): Promise<{ owner: UserRow; actor: UserRow | null }> {
  services.packages.ensureEnabled();
  if (!who.credentials) throw new Unauthorized('authentication required');
  authorize(who.auth, { anonymous: true, basicOnly: false, scopes: ['package'], write: need === 'write' });
  if (!imageShape.test(image)) throw new RegistryError(400, 'NAME_INVALID', 'invalid repository name');
  const { owner, access } = await services.packages.ownerAccess(ownerName, who.auth.actor);
  if (!owner || access === 'none') {
    if (!who.auth.actor) throw new Unauthorized('authentication required');
    throw nameUnknown();
  }
  if (need === 'write' && access !== 'write') {
    if (!who.auth.actor) throw new Unauthorized('authentication required');
    throw new RegistryError(403, 'DENIED', 'requested access to the resource is denied');
  }
  return { owner, actor: who.auth.actor };
}

const route = /^([^/]+)\/(.+)\/(blobs\/uploads\/?|blobs\/uploads\/([^/]+)|blobs\/([^/]+)|manifests\/([^/]+)|tags\/list)$/;

export function containerRoutes(router: Router, services: Services): void {
  const containers = services.containers;

  const root = async (ctx: Context) => {
    services.packages.ensureEnabled();
    const who = await caller(ctx, services);
    if (!who.credentials) throw new Unauthorized('authentication required');
    ctx.status = 200;
    ctx.body = {};
  };

  const token = async (ctx: Context) => {
    services.packages.ensureEnabled();
    const auth = await authenticate(ctx, services);
    const { token: t, expiresIn } = await containers.issueToken(auth.actor, auth.method === 'token' ? auth.scopes : undefined);
    ctx.body = { token: t, access_token: t, expires_in: expiresIn, issued_at: new Date().toISOString() };
  };

  const blobHeaders = (ctx: Context, digest: string, size: number) => {
    ctx.set('Docker-Content-Digest', digest);
    ctx.set('ETag', `"${digest}"`);
    ctx.length = size;
  };

  const uploadHeaders = (ctx: Context, path: string, uuid: string, size: number) => {
    ctx.set('Location', `/v2/${path}/blobs/uploads/${uuid}`);
    ctx.set('Docker-Upload-UUID', uuid);
    ctx.set('Range', `0-${size > 0 ? size - 1 : 0}`);
    ctx.length = 0;
  };

  router.all(['/v2', '/v2/'], root);
  router.get('/v2/token', token);

  router.all('/v2/{*rest}', async (ctx) => {
    const raw = ctx.path.slice('/v2/'.length);
    if (raw === '' || raw === 'token') return ctx.method === 'GET' && raw === 'token' ? token(ctx) : root(ctx);
    const m = route.exec(raw);
    if (!m) throw new RegistryError(404, 'NAME_UNKNOWN', 'not a registry route');
    const [, ownerName, image, what, uploadId, blobDigest, reference] = m as unknown as [string, string, string, string, string | undefined, string | undefined, string | undefined];
    const path = `${ownerName}/${image}`;
    const method = ctx.method;
    const who = await caller(ctx, services);
    const q = (name: string) => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : undefined);

    if (what.startsWith('blobs/uploads')) {
      const { owner, actor } = await imageAccess(ctx, services, who, ownerName, image, 'write');
      if (uploadId === undefined) {
        if (method !== 'POST') throw new RegistryError(405, 'UNSUPPORTED', 'method not allowed');
        const mount = q('mount');
        const from = q('from');
        if (mount) {
          const source = from ? /^([^/]+)\/(.+)$/.exec(from) : null;
          let fromImage: { ownerId: number; image: string } | undefined;
          if (source) {
            const { owner: fromOwner, access } = await services.packages.ownerAccess(source[1]!, actor);
            if (fromOwner && access !== 'none') fromImage = { ownerId: fromOwner.id, image: source[2]! };
          }
          if (await containers.mount(owner, actor!, image, mount, fromImage)) {
            ctx.status = 201;
            ctx.set('Location', `/v2/${path}/blobs/${mount}`);
            ctx.set('Docker-Content-Digest', mount);
            ctx.length = 0;
            return;
          }
          // Not mountable: an ordinary upload starts instead, as the distribution spec asks.
        }
        const digest = q('digest');
        if (digest !== undefined) {
          await containers.uploadWhole(owner, actor!, image, digest, ctx.req);
          ctx.status = 201;
          ctx.set('Location', `/v2/${path}/blobs/${digest}`);
          ctx.set('Docker-Content-Digest', digest);
          ctx.length = 0;
          return;
        }
        const uuid = await containers.startUpload(owner.id, image);
        ctx.status = 202;
        uploadHeaders(ctx, path, uuid, 0);
        return;
      }
      if (method === 'GET') {
        const size = await containers.uploadSize(owner.id, image, uploadId);
        ctx.status = 204;
        uploadHeaders(ctx, path, uploadId, size);
        return;
      }
      if (method === 'PATCH') {
        const range = ctx.get('Content-Range');
        let start: number | undefined;
        if (range) {
          const r = /^(?:bytes[ =])?(\d+)-(\d+)$/.exec(range.trim());
          if (!r) throw new RegistryError(416, 'BLOB_UPLOAD_INVALID', 'invalid Content-Range');
          start = Number(r[1]);
        }
        const size = await containers.appendUpload(owner.id, image, uploadId, ctx.req, start);
        ctx.status = 202;
        uploadHeaders(ctx, path, uploadId, size);
        return;
      }
      if (method === 'PUT') {
        const digest = q('digest');
        if (!digest) throw new RegistryError(400, 'DIGEST_INVALID', 'the digest parameter is required');
        await containers.finishUpload(owner, actor!, image, uploadId, digest, ctx.req);
        ctx.status = 201;
        ctx.set('Location', `/v2/${path}/blobs/${digest}`);
        ctx.set('Docker-Content-Digest', digest);
        ctx.length = 0;
        return;
      }
      if (method === 'DELETE') {
        await containers.cancelUpload(owner.id, image, uploadId);
        ctx.status = 204;
        return;
      }
      throw new RegistryError(405, 'UNSUPPORTED', 'method not allowed');
    }

    if (blobDigest !== undefined) {
      if (method === 'GET' || method === 'HEAD') {
        const { owner } = await imageAccess(ctx, services, who, ownerName, image, 'read');
        if (!digestShape.test(blobDigest)) throw new RegistryError(400, 'DIGEST_INVALID', 'invalid digest');
        const blob = await containers.findBlob(owner.id, image, blobDigest);
        if (!blob) throw blobUnknown();
        ctx.status = 200;
        ctx.type = 'application/octet-stream';
        if (method === 'HEAD') return blobHeaders(ctx, blobDigest, blob.size);
        const opened = await services.packages.open(blob, blobDigest);
        if (opened.redirect) {
          ctx.status = 307;
          ctx.redirect(opened.redirect);
          return;
        }
        ctx.body = opened.stream;
        blobHeaders(ctx, blobDigest, blob.size);
        return;
      }
      if (method === 'DELETE') {
        const { owner } = await imageAccess(ctx, services, who, ownerName, image, 'write');
        await containers.deleteBlob(owner.id, image, blobDigest);
        ctx.status = 202;
        ctx.length = 0;
        return;
      }
      throw new RegistryError(405, 'UNSUPPORTED', 'method not allowed');
    }

    if (reference !== undefined) {
      if (method === 'GET' || method === 'HEAD') {
        const { owner } = await imageAccess(ctx, services, who, ownerName, image, 'read');
        const found = await containers.findManifest(owner.id, image, reference);
        if (!found) throw manifestUnknown();
        ctx.status = 200;
        ctx.type = found.mediaType;
        ctx.set('Docker-Content-Digest', found.digest);
        ctx.set('ETag', `"${found.digest}"`);
        if (method === 'HEAD') {
          ctx.length = found.blob.size;
          return;
        }
        const opened = await services.packages.open(found.blob, 'manifest.json');
        if (opened.redirect) {
          ctx.status = 307;
          ctx.redirect(opened.redirect);
          return;
        }
        ctx.body = opened.stream;
        ctx.length = found.blob.size;
        return;
      }
      if (method === 'PUT') {
        const { owner, actor } = await imageAccess(ctx, services, who, ownerName, image, 'write');
        const bytes = Buffer.from(await readTextBody(ctx, maxManifestSize), 'utf8');
        const digest = await containers.putManifest(owner, actor!, image, reference, ctx.get('Content-Type'), bytes);
        ctx.status = 201;
        ctx.set('Location', `/v2/${path}/manifests/${reference}`);
        ctx.set('Docker-Content-Digest', digest);
        ctx.length = 0;
        return;
      }
      if (method === 'DELETE') {
        const { owner, actor } = await imageAccess(ctx, services, who, ownerName, image, 'write');
        await containers.deleteManifest(owner.id, image, reference, actor!);
        ctx.status = 202;
        ctx.length = 0;
        return;
      }
      throw new RegistryError(405, 'UNSUPPORTED', 'method not allowed');
    }

    // tags/list
    if (method !== 'GET') throw new RegistryError(405, 'UNSUPPORTED', 'method not allowed');
    const { owner } = await imageAccess(ctx, services, who, ownerName, image, 'read');
    const nRaw = q('n');
    const n = nRaw === undefined || nRaw === '' ? undefined : Number(nRaw);
    if (n !== undefined && (!Number.isInteger(n) || n < 0)) throw new RegistryError(400, 'PAGINATION_NUMBER_INVALID', 'invalid number of results requested');
    const { tags, more } = await containers.tags(owner.id, image, n, q('last'));
    if (more) ctx.set('Link', `</v2/${path}/tags/list?n=${n}&last=${encodeURIComponent(tags[tags.length - 1]!)}>; rel="next"`);
    ctx.body = { name: path, tags };
  });
}
