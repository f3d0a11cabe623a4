// The OpenAPI document, read once: the routes, each operation's access rule and its validator.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parse } from 'yaml';
import { scopeCategories, type ScopeCategory } from '../services/users/tokens.js';
import type { AccessRule } from './auth.js';
import { fromRoot } from '../paths.js';
import { withGoNullables } from './specNullables.js';

export const specPath = fromRoot('spec', 'openapi.yaml');

export interface SpecOperation {
  operationId: string;
  method: string;
  /** Path as the spec writes it, e.g. /repos/{owner}/{repo}. */
  path: string;
  access: AccessRule;
  /** Query parameter names the operation declares; the others (token, sudo, ...) are ignored. */
  queryNames: Set<string>;
  /** Media types of the request body, if any. */
  bodyTypes: string[];
  /**
   * The path parameters when each is a plain string or int64 (every one in the spec today), so a
   * request with no query and no body can be checked without the validator; undefined otherwise.
   */
  plainPath?: Array<{ name: string; integer: boolean }>;
  /**
   * Path and query parameters the spec types as integers. Gitea reads them as decimal digits only, so
   * '1e3', '0x1A' or ' 1' (which JavaScript and the validator would coerce) are refused before validation.
   */
  integerParams: Array<{ name: string; in: 'path' | 'query' }>;
}

/** An integer, or an array of integers (each value of a repeated query parameter). */
function isIntegerSchema(schema: Record<string, unknown> | undefined): boolean {
  if (schema?.type === 'array') return (schema.items as Record<string, unknown> | undefined)?.type === 'integer';
  return schema?.type === 'integer';
}

/** A decimal integer as Gitea's strconv.ParseInt reads it: an optional sign, then digits. */
export const DECIMAL_INTEGER = /^[+-]?\d+$/;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Whether a decimal integer (DECIMAL_INTEGER) fits Go's int64, as strconv.ParseInt(v, 10, 64) reads it. */
export function inInt64(v: string): boolean {
  const digits = v.replace(/^[+-]?0*/, '');
  if (digits.length < 19) return true;
  if (digits.length > 19) return false;
  const n = BigInt(v);
  return n >= INT64_MIN && n <= INT64_MAX;
}

function plainPathParams(params: Array<{ in?: string; name?: string; schema?: Record<string, unknown> }>): SpecOperation['plainPath'] {
  const out: NonNullable<SpecOperation['plainPath']> = [];
  for (const p of params) {
    if (p.in !== 'path') continue;
    const { description: _, ...schema } = p.schema ?? {};
    const keys = Object.keys(schema).sort().join();
    if (keys === 'type' && schema.type === 'string') out.push({ name: p.name!, integer: false });
    else if (keys === 'format,type' && schema.type === 'integer' && schema.format === 'int64') out.push({ name: p.name!, integer: true });
    else return undefined;
  }
  return out;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OpenApiDocument = any;

/** `make install` writes the spec as JSON beside the bundle; parsing 9,000 lines of YAML is most of a start. */
export const compiledSpecPath = fromRoot('dist', 'openapi.json');

/** The spec as the server uses and serves it: optional request properties also accept `null` (specNullables.ts). */
export function loadSpec(path = specPath): OpenApiDocument {
  if (path === specPath && existsSync(compiledSpecPath) && statSync(compiledSpecPath).mtimeMs >= statSync(specPath).mtimeMs) {
    return withGoNullables(JSON.parse(readFileSync(compiledSpecPath, 'utf8')));
  }
  return withGoNullables(parse(readFileSync(path, 'utf8')));
}

/** The path template requests are validated against: parameters joined by `.` in one segment become two segments. */
export const validationTemplate = (path: string) => path.replace(/\}\.\{/g, '}/{');

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function resolveParam(doc: OpenApiDocument, p: { $ref?: string; name?: string; in?: string }) {
  if (!p.$ref) return p;
  const name = p.$ref.split('/').pop()!;
  return doc.components.parameters[name];
}

export function specOperations(doc: OpenApiDocument): SpecOperation[] {
  const ops: SpecOperation[] = [];
  for (const [path, item] of Object.entries<Record<string, OpenApiDocument>>(doc.paths)) {
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      const security: Array<Record<string, unknown>> = op.security ?? doc.security ?? [];
      const rawScope = op['x-anvil-scope'];
      const scopes = (rawScope === undefined || rawScope === 'none' ? [] : [rawScope].flat()) as ScopeCategory[];
      for (const s of scopes) {
        if (!scopeCategories.includes(s)) throw new Error(`${op.operationId}: unknown x-anvil-scope ${s}`);
      }
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => resolveParam(doc, p));
      ops.push({
        operationId: op.operationId,
        method,
        path,
        access: {
          anonymous: security.some((s) => Object.keys(s).length === 0),
          basicOnly: security.length > 0 && security.every((s) => Object.keys(s).join() === 'BasicAuth'),
          scopes,
          write: method !== 'get' && method !== 'head',
        },
        queryNames: new Set(params.filter((p) => p.in === 'query').map((p) => p.name)),
        bodyTypes: Object.keys(op.requestBody?.content ?? {}),
        // A required header or query parameter must reach the validator, which reports it missing.
        plainPath: params.some((p) => (p.in === 'header' || p.in === 'query') && p.required) ? undefined : plainPathParams(params),
        integerParams: params
          .filter((p) => (p.in === 'path' || p.in === 'query') && isIntegerSchema(p.schema))
          .map((p) => ({ name: p.name, in: p.in })),
      });
    }
  }
  return ops;
}
