// Routes built once from the spec's paths. Each route: authenticate → authorize (the operation's
// access rule) → read the body (JSON, or multipart streamed to disk) → validate against the operation →
// handler → answer.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../config.js';
import { BadRequest, NotFound, NotImplemented, Invalid, Unauthorized } from '../services/errors.js';
import type { Services } from '../services/index.js';
import { authenticate, authorize, type Auth } from './auth.js';
import { redirectLocation, redirectTo, type NamedSegments } from './redirects.js';
import { readJsonBody, readTextBody } from './body.js';
import { discardUploads, readMultipart } from './multipart.js';
import { registry } from './operations/index.js';
import { DECIMAL_INTEGER, inInt64, specOperations, validationTemplate, type OpenApiDocument, type SpecOperation } from './spec.js';
import type { Handler, HandlerEntry, OperationId } from './types.js';
import { textProblem } from './textInput.js';
import { HttpError } from './errors.js';
import type { ValidationInput, ValidationOutcome } from './validate.js';
import { indexRoutes } from './routeIndex.js';

export const apiPrefix = '/api/v1';

/** Spec operations without a handler and handlers without a spec operation; both must be empty. */
export function registryMismatch(ops: SpecOperation[]): { missing: string[]; extra: string[] } {
  const inSpec = new Set(ops.map((o) => o.operationId));
  const inRegistry = new Set(Object.keys(registry));
  return {
    missing: [...inSpec].filter((id) => !inRegistry.has(id)),
    extra: [...inRegistry].filter((id) => !inSpec.has(id)),
  };
}

export function isImplemented(operationId: string): boolean {
  const entry = (registry as Record<string, HandlerEntry<OperationId>>)[operationId];
  return typeof entry === 'function';
}

/** Literal segments before parameters, so /issues/comments/{id} wins over /issues/{index}/... */
function specificity(a: SpecOperation, b: SpecOperation): number {
  const sa = a.path.split('/');
  const sb = b.path.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i]!.startsWith('{');
    const pb = sb[i]!.startsWith('{');
    if (pa !== pb) return pa ? 1 : -1;
    // A segment with literal text besides its parameters ({index}.{diffType}) before a bare one ({index}).
    const ma = pa && !/^\{[^}]+\}$/.test(sa[i]!);
    const mb = pb && !/^\{[^}]+\}$/.test(sb[i]!);
    if (ma !== mb) return ma ? -1 : 1;
  }
  return sb.length - sa.length;
}

// Path parameters that span the rest of the path (Gitea's `*` routes): file paths, branch names and refs
// with slashes. Only a last segment does: `commits/{ref}/statuses` keeps `ref` one segment.
const restOfPath = new Set(['filepath', 'branch', 'head', 'basehead', 'archive', 'ref', 'tag']);

// path-to-regexp ends a bare parameter name at a character no identifier has (`{user-id}`): such names are quoted.
const paramName = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
const toKoaPath = (p: string) =>
  apiPrefix +
  p.replace(/\{([^}]+)\}/g, (m: string, name: string, at: number) => (restOfPath.has(name) && at + m.length === p.length ? `*${paramName(name)}` : `:${paramName(name)}`));

/** The request path rebuilt from the template with every value encoded, so a slash in a file path stays one parameter. */
const validationPath = (op: SpecOperation, params: Record<string, string>) =>
  validationTemplate(op.path).replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

function declaredQuery(ctx: Context, op: SpecOperation): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(ctx.query)) if (op.queryNames.has(k) && v !== undefined) out[k] = v;
  return out;
}

function numbersOf(values: Record<string, unknown> | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([, v]) => typeof v === 'number')) as Record<string, number>;
}

/** Any operation's reply, once the handler's own type has been checked. */
type AnyReply = { status: number; body?: unknown; headers?: Record<string, string> };

function answer(ctx: Context, reply: AnyReply): void {
  const headers = reply.headers ?? {};
  if (reply.status === 205) {
    // Koa drops a 205's body; Gitea sends one (the changed threads), so write the response ourselves.
    const payload = JSON.stringify(reply.body ?? null);
    ctx.respond = false;
    ctx.res.writeHead(205, {
      ...Object.fromEntries(Object.entries(ctx.response.headers).map(([k, v]) => [k, String(v)])),
      ...headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(payload)),
    });
    ctx.res.end(payload);
    return;
  }
  ctx.set(headers);
  ctx.status = reply.status;
  if (reply.body !== undefined) ctx.body = reply.body;
  else if (reply.status !== 204) {
    // Koa would write the status message ("OK", "Created") as a body; Gitea's ctx.Status sends none.
    ctx.body = '';
    ctx.remove('Content-Type');
  }
}

export async function buildRouter(doc: OpenApiDocument, services: Services, config: Config): Promise<Router> {
  const ops = specOperations(doc).sort(specificity);
  const { missing, extra } = registryMismatch(ops);
  if (missing.length || extra.length) {
    throw new Error(`handler registry and spec disagree: no handler for [${missing}], no operation for [${extra}]`);
  }
  // The validator (openapi-backend and Ajv, the document dereferenced) is loaded and built by the first
  // request that needs it, not at start (#41): requests with nothing to validate never wait for it.
  let validator: Promise<(operationId: string, input: ValidationInput) => ValidationOutcome> | undefined;
  const validate = async (operationId: string, input: ValidationInput): Promise<ValidationOutcome> => {
    validator ??= import('./validate.js').then((m) => m.createValidator(doc));
    return (await validator.catch((err) => {
      validator = undefined;
      throw err;
    }))(operationId, input);
  };
  const router = new Router();
  for (const op of ops) {
    const entry = (registry as Record<string, HandlerEntry<OperationId>>)[op.operationId]!;
    const serve = async (ctx: Context, authenticated: (auth: Auth) => void) => {
      ctx.state.operationId = op.operationId;
      const auth = await authenticate(ctx, services);
      authenticated(auth);
      ctx.state.actorId = auth.actor?.id;
      authorize(auth, op.access);
      if (typeof entry !== 'function') {
        throw new NotImplemented(`${op.operationId} is not implemented yet (${entry.notImplemented})`);
      }
      const query = declaredQuery(ctx, op);
      const check = async (body: unknown) => {
        const bad = textProblem({ ...ctx.params, ...query }) ?? textProblem(body);
        if (bad) throw new Invalid(bad);
        for (const p of op.integerParams) {
          const raw = p.in === 'path' ? ctx.params[p.name] : query[p.name];
          for (const v of [raw].flat()) {
            if (typeof v === 'string' && v !== '' && !DECIMAL_INTEGER.test(v)) throw new Invalid(`[${p.name}]: must be an integer`);
            // Gitea's integers are Go's int64: beyond it is no value at all (a float would round it into range).
            if (typeof v === 'string' && v !== '' && !inInt64(v)) throw new Invalid(`[${p.name}]: ${v} is out of range for a 64-bit integer`);
          }
        }
        const checked = await validate(op.operationId, { method: op.method, path: validationPath(op, ctx.params), headers: ctx.headers, query, body });
        if (!checked.ok) throw new Invalid(checked.message!);
        return checked;
      };
      const run = async (body: unknown, checked: Awaited<ReturnType<typeof check>>) => {
        const handler = entry as Handler<OperationId>;
        const reply = await handler({
          // koa-router decodes path segments; the validator contributes the numbers it coerced.
          path: { ...ctx.params, ...numbersOf(checked.path) } as never,
          query: (checked.query ?? query) as never,
          body: body as never,
          auth,
          services,
          config,
          koa: ctx,
        });
        answer(ctx, reply as AnyReply);
      };
      if (op.bodyTypes.length === 0 && op.plainPath && Object.keys(query).length === 0) {
        // Nothing for the validator to do but turn integer path parameters into numbers: done here
        // when each is plainly one; anything else goes to the validator for its exact message.
        const numbers: Record<string, number> = {};
        let plain = true;
        for (const p of op.plainPath) {
          if (!p.integer) continue;
          const v = ctx.params[p.name] ?? '';
          const n = Number(v);
          if (!/^-?\d{1,16}$/.test(v) || !Number.isSafeInteger(n)) plain = false;
          numbers[p.name] = n;
        }
        if (plain) {
          const bad = textProblem(ctx.params);
          if (bad) throw new Invalid(bad);
          return run(undefined, { ok: true, path: numbers });
        }
      }
      if (!op.bodyTypes.includes('multipart/form-data')) {
        const body = op.bodyTypes.includes('application/json')
          ? await readJsonBody(ctx, config.bodyLimitBytes)
          : op.bodyTypes.includes('text/plain')
            ? await readTextBody(ctx, config.bodyLimitBytes)
            : undefined;
        const checked = await check(body);
        return run(checked.body, checked);
      }
      // Uploads: parameters first, so a bad request writes nothing; then the parts, streamed to disk.
      // Files the handler did not keep are deleted, whatever happened.
      await check({});
      const form = await readMultipart(ctx, {
        tmpDir: services.attachments.storage.tmpDir,
        maxFileBytes: config.attachment.maxSizeMiB * 1024 * 1024,
        maxFiles: config.attachment.maxFiles,
      });
      try {
        const badName = textProblem(Object.fromEntries(Object.entries(form.files).map(([field, f]) => [`${field}.filename`, f?.filename ?? ''])));
        if (badName) throw new Invalid(badName);
        await run(form, await check(form.fields));
      } finally {
        await discardUploads(form);
      }
    };
    const named = namedSegments(op.path);
    router[op.method as 'get'](toKoaPath(op.path), async (ctx) => {
      let caller: Auth | undefined;
      try {
        await serve(ctx, (auth) => (caller = auth));
      } catch (err) {
        // An old name of a renamed or transferred repository or a renamed account: Gitea resolves the path's
        // names before it reads the body or asks for a sign-in, so the answers a missing name leads to (404,
        // a body refused, a sign-in asked for) become a redirect to the current name. Looked up only here, on
        // the way out of a failed request, never on a served one.
        const location = named && caller && redirectable(err) ? await redirectLocation(ctx, services, caller, named) : undefined;
        if (!location) throw err;
        redirectTo(ctx, location);
      }
    });
  }
  indexRoutes(router);
  return router;
}

/** The answers after which an old name in the path is looked up: those a missing repository or account leads to. */
const redirectable = (err: unknown) => err instanceof NotFound || err instanceof Invalid || err instanceof BadRequest || err instanceof Unauthorized ||
  (err instanceof HttpError && err.status === 400);

const prefixDepth = apiPrefix.split('/').length - 1;

/** Where an operation's path names a repository (`/repos/{owner}/{repo}…`) or an account (`/users/{username}…`, `/orgs/{org}…`). */
function namedSegments(path: string): NamedSegments | undefined {
  if (/^\/repos\/\{owner\}\/\{repo\}(\/|$)/.test(path)) return { repo: [prefixDepth + 2, prefixDepth + 3] };
  if (/^\/(users\/\{username\}|orgs\/\{org\})(\/|$)/.test(path)) return { account: prefixDepth + 2 };
  return undefined;
}
