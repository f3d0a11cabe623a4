// The v1–v3 artifact protocol under /api/actions_pipeline/_apis/pipelines/workflows/{run}/artifacts (what
// actions/upload-artifact@v3 and download-artifact@v3 speak to ACTIONS_RUNTIME_URL), with Gitea's routes:
//   GET|POST|PATCH  …/artifacts                      list; open a container; confirm (?artifactName=)
//   PUT             …/artifacts/{md5 of name}/upload  a chunk of a file (?itemPath=name/path)
//   GET             …/artifacts/{md5 of name}/download_url   the artifact's files (?itemPath=name)
//   GET             …/artifacts/{file id}/download    one file, as stored
// The caller is a running task (its runtime token as Bearer); errors are plain text, as Gitea's.
// Unlike Gitea, a token of no running task is 401 (Gitea: 500).
import type { Context, Middleware } from 'koa';
import { DomainError } from '../services/errors.js';
import { pipelinePrefix } from '../services/actions/pipelineArtifacts.js';
import type { Services } from '../services/index.js';

const status: Record<string, number> = { NotFound: 404, Unauthorized: 401, Forbidden: 403, BadRequest: 400, Invalid: 400, Conflict: 409 };

async function readJson(ctx: Context): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of ctx.req as AsyncIterable<Buffer>) {
    n += c.length;
    if (n > 64 * 1024) throw new DomainErrorLike(400, 'request too large');
    chunks.push(c);
  }
  try {
    const v = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new DomainErrorLike(400, 'Error decode request body');
}

class DomainErrorLike extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export function pipelineArtifactMiddleware(services: Services): Middleware {
  const { artifacts, pipelineArtifacts: pipeline } = services;
  return async (ctx, next) => {
    if (!ctx.path.startsWith(pipelinePrefix) || !services.deps.config.actions.enabled) return next();
    const m = /^(\d+)\/artifacts(?:\/([^/]+)\/(upload|download_url|download))?\/?$/.exec(ctx.path.slice(pipelinePrefix.length));
    try {
      if (!m) throw new DomainErrorLike(404, 'Not found');
      const [, runParam, key, action] = m as unknown as [string, string, string | undefined, string | undefined];
      const route = `${ctx.method} ${action ?? ''}`;
      const allowed = ['GET ', 'POST ', 'PATCH ', 'PUT upload', 'GET download_url', 'GET download'];
      if (!allowed.includes(route)) throw new DomainErrorLike(405, 'Method not allowed');
      const caller = await artifacts.caller(ctx.get('authorization'));
      pipeline.checkRun(caller, runParam);
      switch (route) {
        case 'POST ': {
          const body = await readJson(ctx);
          ctx.body = await pipeline.createContainer(caller, { Name: body.Name, RetentionDays: body.RetentionDays });
          return;
        }
        case 'PATCH ':
          await pipeline.confirm(caller, one(ctx.query.artifactName));
          ctx.body = { message: 'success' };
          return;
        case 'GET ':
          ctx.body = await pipeline.list(caller);
          return;
        case 'PUT upload':
          await pipeline.uploadChunk(caller, key!, {
            itemPath: one(ctx.query.itemPath), contentRange: ctx.get('content-range') || undefined, contentLength: ctx.get('content-length') || undefined,
            fileLength: ctx.get('x-tfs-filelength') || undefined, contentEncoding: ctx.get('content-encoding') || undefined,
            md5: ctx.get('x-actions-results-md5') || undefined,
          }, ctx.req);
          ctx.body = { message: 'success' };
          return;
        case 'GET download_url':
          ctx.body = await pipeline.items(caller, key!, one(ctx.query.itemPath));
          return;
        default: {
          const file = await pipeline.download(caller, key!);
          ctx.set('Content-Type', 'application/octet-stream');
          ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`);
          if (file.encoding === 'gzip') ctx.set('Content-Encoding', 'gzip');
          ctx.length = file.size;
          ctx.body = file.stream;
        }
      }
    } catch (err) {
      const code = err instanceof DomainError ? status[err.kind] : err instanceof DomainErrorLike ? err.status : undefined;
      if (code === undefined) throw err;
      ctx.status = code;
      ctx.type = 'text/plain';
      ctx.body = (err as Error).message;
    }
  };
}
