// The spec as the contract test reads it: $refs inlined (for the request generators), each operation's
// shape, and one compiled validator per declared response body.
import type { ValidateFunction } from 'ajv';
import type { OpenApiDocument, SpecOperation } from '../src/api/spec.js';
import { newAjv } from '../src/api/validate.js';
import type { JsonSchema, OperationShape } from './arbitraries.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const unescape = (part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~');
const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

function atPointer(root: unknown, pointer: string): unknown {
  let node = root;
  for (const part of pointer.split('/').slice(1)) {
    if (!isObj(node) && !Array.isArray(node)) throw new Error(`$ref #${pointer}: not found`);
    node = (node as Obj)[unescape(part)];
    if (node === undefined) throw new Error(`$ref #${pointer}: not found`);
  }
  return node;
}

/**
 * A copy of `doc` with every local $ref replaced by its (copied) target. Each target is copied once and
 * shared, so a self-referencing schema (Repository.parent) becomes a cyclic object graph: fine for the
 * generators, which stop at a fixed depth, not for JSON.stringify or Ajv (see responseValidators).
 */
export function dereference<T>(doc: T): T {
  const done = new Map<string, Obj>();
  const viaRef = (ref: string): unknown => {
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
    const hit = done.get(ref);
    if (hit) return hit;
    const target = atPointer(doc, ref.slice(1));
    if (!isObj(target)) return walk(target);
    const out: Obj = {};
    done.set(ref, out); // before walking, so a cycle finds it
    Object.assign(out, walk(target));
    return out;
  };
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObj(node)) return node;
    if (typeof node.$ref === 'string') {
      const { $ref, description: _d, summary: _s, ...siblings } = node;
      const target = viaRef($ref as string);
      // OpenAPI 3.1 lets keywords sit beside $ref; they apply together with the target.
      return Object.keys(siblings).length ? { ...(walk(siblings) as Obj), allOf: [target] } : target;
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  return walk(doc) as T;
}

/** What the request generators need of one operation, from the dereferenced document. */
export function operationShape(derefDoc: OpenApiDocument, op: SpecOperation): OperationShape {
  const item = derefDoc.paths[op.path] as Obj;
  const raw = item[op.method] as Obj;
  const params = [...((item.parameters as Obj[]) ?? []), ...((raw.parameters as Obj[]) ?? [])];
  // An operation's parameter overrides the path item's one of the same name and place.
  const byKey = new Map(params.map((p) => [`${p.in}:${p.name}`, p]));
  const requestBody = raw.requestBody as OperationShape['requestBody'];
  return {
    method: op.method,
    path: op.path,
    parameters: [...byKey.values()]
      .filter((p) => p.in === 'path' || p.in === 'query' || p.in === 'header')
      .map((p) => ({
        name: p.name as string,
        in: p.in as 'path' | 'query' | 'header',
        required: p.required as boolean | undefined,
        schema: (p.schema ?? {}) as JsonSchema,
      })),
    ...(requestBody ? { requestBody } : {}),
  };
}

export interface DeclaredResponse {
  /** The key the spec declares it under: '201', '4XX' or 'default'. */
  key: string;
  /** Validates an application/json body; undefined when the response declares no JSON content. */
  validate?: ValidateFunction;
  /** The response declares no content at all: the body must be empty. */
  empty: boolean;
  /** Headers the response declares (names lower case): required ones must be sent, any sent must fit. */
  headers: DeclaredHeader[];
}

export interface DeclaredHeader {
  name: string;
  required: boolean;
  /** The header's value is an integer (X-Total-Count): decimal digits. */
  integer: boolean;
}

/**
 * Per operation, the declared responses with their body validators, compiled once. Ajv reads the raw
 * document (registered whole as `spec`), so recursive schemas stay $refs and nothing is copied.
 */
export function responseValidators(rawDoc: OpenApiDocument, ops: SpecOperation[]) {
  const ajv = newAjv({ allErrors: true });
  ajv.addSchema(structuredClone(rawDoc), 'spec', undefined, false);
  const out = new Map<string, Map<string, DeclaredResponse>>();
  for (const op of ops) {
    const responses = new Map<string, DeclaredResponse>();
    const base = `/paths/${escape(op.path)}/${op.method}/responses`;
    for (const key of Object.keys(atPointer(rawDoc, base) as Obj)) {
      // Follow a response $ref (#/components/responses/X) to where its content lives.
      let pointer = `${base}/${escape(key)}`;
      let response = atPointer(rawDoc, pointer) as Obj;
      while (typeof response.$ref === 'string') {
        pointer = (response.$ref as string).slice(1);
        response = atPointer(rawDoc, pointer) as Obj;
      }
      const content = (response.content ?? {}) as Obj;
      const json = Object.keys(content).find((ct) => /^application\/json\b/i.test(ct));
      const hasSchema = json !== undefined && isObj(content[json]) && (content[json] as Obj).schema !== undefined;
      const headers: DeclaredHeader[] = [];
      for (const [name, raw] of Object.entries((response.headers ?? {}) as Obj)) {
        let h = raw as Obj;
        while (typeof h.$ref === 'string') h = atPointer(rawDoc, (h.$ref as string).slice(1)) as Obj;
        const type = isObj(h.schema) ? (h.schema as Obj).type : undefined;
        headers.push({ name: name.toLowerCase(), required: h.required === true, integer: type === 'integer' });
      }
      responses.set(key, {
        key,
        headers,
        empty: Object.keys(content).length === 0,
        validate: hasSchema ? ajv.compile({ $ref: `spec#${pointer}/content/${escape(json!)}/schema` }) : undefined,
      });
    }
    out.set(op.operationId, responses);
  }
  return out;
}

/** The declared response a status falls under: exact code, then `4XX`, then `default`. */
export function declaredFor(responses: Map<string, DeclaredResponse>, status: number): DeclaredResponse | undefined {
  return responses.get(String(status)) ?? responses.get(`${String(status)[0]}XX`) ?? responses.get('default');
}
