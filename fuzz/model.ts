// What `make fuzz` reads from any OpenAPI 3.1 document: its operations with their request shapes and
// declared responses, and the links between them that stateful sequences follow: which operation
// creates an object (a producer), and which operations read, change, list and delete that object (its
// consumers), with how each consumer's path parameters come from the created object's fields. Links
// are the spec's own `links` where it has them, otherwise inferred:
//   - by path: `POST /things` creates what `GET|PATCH|DELETE /things/{id}` address (the last parameter
//     is the created object's `id`, `number`, `name`... whichever it has), `GET /things` lists;
//   - by schema: `POST /user/repos` answers a Repository, which `GET /repos/{owner}/{repo}` answers
//     too; `repo` names the schema (repo ~ Repository), so it is the object's name, and `owner` is its
//     `owner` member's login.
import type { OpenApiDocument } from '../src/api/spec.js';
import type { OperationShape } from './arbitraries.js';
import { dereference, operationShape, responseValidators, type DeclaredResponse } from './openapi.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export interface FuzzOperation {
  operationId: string;
  method: string;
  path: string;
  tags: string[];
  shape: OperationShape;
  responses: Map<string, DeclaredResponse>;
  pathParams: string[];
  /** The component schema a 2xx answer holds (`Repository`), one object or an array of them. */
  result?: { schema: string; array: boolean; status: string };
  /** The spec's `links` of its 2xx answers: operationId → parameter → runtime expression. */
  links: Array<{ operationId: string; parameters: Record<string, string> }>;
}

/** How a consumer's path parameters are filled from a created object and the producer's own path. */
export type Derivation = (object: Obj, context: Record<string, string>) => Record<string, string> | undefined;

export interface Chain {
  producer: FuzzOperation;
  schema: string;
  read: FuzzOperation;
  derive: Derivation;
  update?: FuzzOperation;
  remove?: FuzzOperation;
  list?: FuzzOperation;
  /** The producer's body has a boolean `private` member: objects can be made private. */
  privacy: boolean;
  /** How the link was found: the spec's links, the paths, or the schemas. */
  via: 'links' | 'path' | 'schema';
}

export interface Model {
  doc: OpenApiDocument;
  operations: FuzzOperation[];
  byId: Map<string, FuzzOperation>;
  chains: Chain[];
  /** Path prefix of the API on the server (the path of the spec's first server URL), e.g. /api/v1. */
  prefix: string;
}

const refName = (schema: unknown): string | undefined =>
  isObj(schema) && typeof schema.$ref === 'string' && schema.$ref.startsWith('#/components/schemas/') ? schema.$ref.split('/').pop() : undefined;

function resultOf(doc: OpenApiDocument, raw: Obj): FuzzOperation['result'] {
  const responses = (raw.responses ?? {}) as Obj;
  for (const status of Object.keys(responses).filter((s) => /^2\d\d$/.test(s)).sort()) {
    let r = responses[status] as Obj;
    while (typeof r.$ref === 'string') r = r.$ref.split('/').slice(1).reduce<any>((n, k) => n?.[k], doc); // eslint-disable-line @typescript-eslint/no-explicit-any
    const content = (r.content ?? {}) as Obj;
    const json = Object.keys(content).find((ct) => /json/i.test(ct));
    const schema = json ? ((content[json] as Obj).schema as Obj | undefined) : undefined;
    if (!schema) continue;
    const one = refName(schema);
    if (one) return { schema: one, array: false, status };
    if (schema.type === 'array' && refName(schema.items)) return { schema: refName(schema.items)!, array: true, status };
  }
  return undefined;
}

function linksOf(raw: Obj): FuzzOperation['links'] {
  const out: FuzzOperation['links'] = [];
  for (const [status, r] of Object.entries((raw.responses ?? {}) as Obj)) {
    if (!/^2/.test(status) || !isObj(r) || !isObj(r.links)) continue;
    for (const link of Object.values(r.links)) {
      if (isObj(link) && typeof link.operationId === 'string') out.push({ operationId: link.operationId, parameters: (link.parameters ?? {}) as Record<string, string> });
    }
  }
  return out;
}

export function buildModel(doc: OpenApiDocument): Model {
  const deref = dereference(doc);
  const operations: FuzzOperation[] = [];
  for (const [path, item] of Object.entries<Obj>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const raw = item[method] as Obj | undefined;
      if (!raw || typeof raw.operationId !== 'string') continue;
      const base = { operationId: raw.operationId, method, path };
      const shape = operationShape(deref, base as never);
      operations.push({
        ...base,
        tags: (raw.tags as string[] | undefined) ?? [],
        shape,
        responses: new Map(),
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        result: resultOf(doc, raw),
        links: linksOf(raw),
      });
    }
  }
  const validators = responseValidators(doc, operations as never);
  for (const op of operations) op.responses = validators.get(op.operationId)!;
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const server = (doc.servers?.[0]?.url as string | undefined) ?? '';
  const prefix = server ? new URL(server, 'http://x').pathname.replace(/\/$/, '') : '';
  return { doc, operations, byId, chains: inferChains(operations, byId), prefix };
}

// ---------------------------------------------------------------- filling parameters from objects

const scalar = (v: unknown): string | undefined => (typeof v === 'string' && v !== '') || typeof v === 'number' ? String(v) : undefined;
/** An object member standing for an object: a user by its login, anything else by its name or id. */
const nameOf = (v: unknown): string | undefined =>
  scalar(v) ?? (isObj(v) ? scalar(v.login) ?? scalar(v.username) ?? scalar(v.name) ?? scalar(v.id) : undefined);
/** `repo` names Repository, `org` Organization, `username` User. */
const namesSchema = (param: string, schema: string) => {
  const p = param.toLowerCase().replace(/[_-]/g, ''), s = schema.toLowerCase();
  return p.length >= 3 && (s.startsWith(p) || p.startsWith(s));
};

/** The value of the path parameter that names the object itself. */
export function keyOf(param: string, object: Obj, schema: string): string | undefined {
  const own = scalar(object[param]);
  if (own !== undefined) return own;
  if (/^(index|number)$/i.test(param)) return scalar(object.number) ?? scalar(object.index);
  if (/id$/i.test(param)) return scalar(object.id);
  if (namesSchema(param, schema)) return scalar(object.name) ?? scalar(object.login) ?? scalar(object.username) ?? scalar(object.id);
  return undefined;
}

/** Fills `params` (the last one names the object) from the context, then the object's members. */
function deriveByNames(params: string[], schema: string): Derivation {
  return (object, context) => {
    const out: Record<string, string> = {};
    params.forEach((p, i) => {
      const v = i === params.length - 1 ? keyOf(p, object, schema) : context[p] ?? nameOf(object[p]);
      if (v !== undefined) out[p] = v;
    });
    return Object.keys(out).length === params.length ? out : undefined;
  };
}

/** A runtime expression of a link: `$response.body#/id`, `$request.path.owner`, or a constant. */
function deriveByLink(parameters: Record<string, string>, params: string[]): Derivation {
  return (object, context) => {
    const out: Record<string, string> = {};
    for (const [name, expr] of Object.entries(parameters)) {
      const p = name.replace(/^path\./, '');
      let v: string | undefined;
      if (typeof expr !== 'string') v = scalar(expr);
      else if (expr.startsWith('$response.body#')) {
        v = scalar(expr.slice('$response.body#'.length).split('/').slice(1).reduce<unknown>((n, k) => (isObj(n) ? n[k.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), object));
      } else if (expr.startsWith('$request.path.')) v = context[expr.slice('$request.path.'.length)];
      else if (!expr.startsWith('$')) v = expr;
      if (v !== undefined) out[p] = v;
    }
    for (const p of params) if (out[p] === undefined && context[p] !== undefined) out[p] = context[p];
    return params.every((p) => out[p] !== undefined) ? out : undefined;
  };
}

function inferChains(operations: FuzzOperation[], byId: Map<string, FuzzOperation>): Chain[] {
  const at = (path: string, method: string) => operations.find((o) => o.path === path && o.method === method);
  const chains: Chain[] = [];
  for (const producer of operations) {
    if (producer.method !== 'post' || !producer.result || producer.result.array) continue;
    const body = producer.shape.requestBody?.content;
    if (body && !Object.keys(body).some((ct) => /json/i.test(ct))) continue; // uploads are not sequences
    const schema = producer.result.schema;
    let read: FuzzOperation | undefined, derive: Derivation | undefined, via: Chain['via'] | undefined;
    // 1. The spec's links.
    for (const link of producer.links) {
      const target = byId.get(link.operationId);
      if (target?.method === 'get') {
        read = target;
        derive = deriveByLink(link.parameters, target.pathParams);
        via = 'links';
        break;
      }
    }
    // 2. By path: POST /x answers what GET /x/{k} reads.
    if (!read) {
      const item = operations.find((o) => o.method === 'get' && o.result?.schema === schema && !o.result.array
        && o.path.startsWith(`${producer.path}/{`) && /^\/\{[^}/]+\}$/.test(o.path.slice(producer.path.length)));
      if (item) {
        read = item;
        derive = deriveByNames(item.pathParams, schema);
        via = 'path';
      }
    }
    // 3. By schema: a GET answering the same schema whose last parameter names it, the fewest parameters first.
    if (!read) {
      const item = operations
        .filter((o) => o.method === 'get' && o.result?.schema === schema && !o.result.array && o.pathParams.length > 0
          && o.path.endsWith(`{${o.pathParams.at(-1)}}`) && namesSchema(o.pathParams.at(-1)!, schema))
        .sort((a, b) => a.pathParams.length - b.pathParams.length || a.path.length - b.path.length)[0];
      if (item) {
        read = item;
        derive = deriveByNames(item.pathParams, schema);
        via = 'schema';
      }
    }
    if (!read || !derive || !via) continue;
    const update = at(read.path, 'patch') ?? (at(read.path, 'put')?.shape.requestBody ? at(read.path, 'put') : undefined);
    const remove = at(read.path, 'delete');
    // The list: GET on the producer's own path, answering an array of the schema.
    const listOp = at(producer.path, 'get');
    const list = listOp?.result?.schema === schema && listOp.result.array ? listOp : undefined;
    const json = body && Object.entries(body).find(([ct]) => /json/i.test(ct))?.[1]?.schema;
    const privacy = isObj(json) && isObj(json.properties) && isObj(json.properties.private)
      && [json.properties.private.type].flat().includes('boolean');
    chains.push({ producer, schema, read, derive, via, privacy, ...(update ? { update } : {}), ...(remove ? { remove } : {}), ...(list ? { list } : {}) });
  }
  return chains;
}
