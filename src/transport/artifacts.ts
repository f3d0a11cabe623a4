// The artifact protocol v4 under /twirp/github.actions.results.api.v1.ArtifactService/ (what
// actions/upload-artifact@v4 and download-artifact@v4, and the built-in runner, speak): twirp JSON calls
// authenticated with the task's runtime token as Bearer, and the signed upload (PUT, Azure block style)
// and download (GET) URLs they answer. Twirp errors are `{"code": …, "msg": …}`.
import type { Context, Middleware } from 'koa';
import { DomainError } from '../services/errors.js';
import { artifactService } from '../services/actions/artifacts.js';
import type { Services } from '../services/index.js';

const prefix = `/${artifactService}/`;

const twirpCode: Record<string, [number, string]> = {
  NotFound: [404, 'not_found'], Unauthorized: [401, 'unauthenticated'], Forbidden: [403, 'permission_denied'],
  BadRequest: [400, 'invalid_argument'], Invalid: [400, 'invalid_argument'], Conflict: [409, 'already_exists'],
};

async function readJson(ctx: Context): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of ctx.req as AsyncIterable<Buffer>) {
    n += c.length;
    if (n > 1024 * 1024) throw Object.assign(new Error('request too large'), { twirp: [400, 'invalid_argument'] });
    chunks.push(c);
  }
  try {
    const v = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw Object.assign(new Error('the body is not a JSON object'), { twirp: [400, 'malformed'] });
}

const query = (ctx: Context): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(ctx.query).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));

export function artifactMiddleware(services: Services): Middleware {
  const { artifacts } = services;
  return async (ctx, next) => {
    if (!ctx.path.startsWith(prefix) || !services.deps.config.actions.enabled) return next();
    const method = ctx.path.slice(prefix.length);
    try {
      if (method === 'UploadArtifact' && ctx.method === 'PUT') {
        await artifacts.upload(query(ctx), ctx.req);
        ctx.status = 201;
        return;
      }
      if (method === 'DownloadArtifact' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
        const { stream, size, name } = await artifacts.download(query(ctx));
        ctx.set('Content-Type', 'application/zip');
        ctx.set('Content-Disposition', `attachment; filename="${encodeURIComponent(name)}.zip"`);
        ctx.length = size;
        ctx.body = stream;
        return;
      }
      if (ctx.method !== 'POST') {
        ctx.status = 405;
        return;
      }
      const caller = await artifacts.caller(ctx.get('authorization'));
      const body = await readJson(ctx);
      switch (method) {
        case 'CreateArtifact': {
          const { uploadUrl } = await artifacts.create(caller, { name: body.name, expiresAt: body.expires_at });
          ctx.body = { ok: true, signed_upload_url: uploadUrl };
          return;
        }
        case 'FinalizeArtifact': {
          const id = await artifacts.finalize(caller, { name: body.name, size: body.size, hash: body.hash });
          ctx.body = { ok: true, artifact_id: String(id) };
          return;
        }
        case 'ListArtifacts': {
          const nameFilter = typeof body.name_filter === 'string' ? body.name_filter : undefined;
          const idFilter = body.id_filter !== undefined && body.id_filter !== null ? Number(body.id_filter) : undefined;
          const rows = await artifacts.listForTask(caller, { name: nameFilter, id: Number.isSafeInteger(idFilter) ? idFilter : undefined });
          ctx.body = {
            artifacts: rows.map((a) => ({
              workflow_run_backend_id: String(a.runId), workflow_job_run_backend_id: String(a.jobId), database_id: String(a.id), name: a.name,
              size: String(a.size), created_at: a.createdAt.toISOString(),
            })),
          };
          return;
        }
        case 'GetSignedArtifactURL': {
          ctx.body = { signed_url: await artifacts.signedDownload(caller, body.name) };
          return;
        }
        case 'DeleteArtifact': {
          const id = await artifacts.deleteForTask(caller, body.name);
          ctx.body = { ok: true, artifact_id: String(id) };
          return;
        }
        default:
          ctx.status = 404;
          ctx.body = { code: 'bad_route', msg: `no such method: ${method}` };
      }
    } catch (err) {
      const mapped = err instanceof DomainError ? twirpCode[err.kind] : (err as { twirp?: [number, string] }).twirp;
      if (!mapped) throw err;
      ctx.status = mapped[0];
      ctx.body = { code: mapped[1], msg: (err as Error).message };
    }
  };
}
