// Request validation against the matched operation (openapi-backend with Ajv for JSON Schema 2020-12).
// Routing is ours (@koa/router); openapi-backend only validates, so no per-request operation scan.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import OpenAPIBackend from 'openapi-backend';
import { compileGoDecoders, decodeGoBody, decodeGoQuery } from './goDecode.js';
import { validationTemplate, type OpenApiDocument } from './spec.js';

export interface ValidationInput {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | string[]>;
  body?: unknown;
}

export interface ValidationOutcome {
  ok: boolean;
  message?: string;
  /** Path and query parameters coerced to their schema types. */
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  /** The body as Go decodes it (goDecode.ts): what the handler is given. */
  body?: unknown;
}

// The int64 ids of OpenAPI fit in a JS number for anvil's lifetime; `binary` is a multipart file.
function addOpenApiFormats(ajv: InstanceType<typeof Ajv2020.default>) {
  addFormats.default(ajv);
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('binary', true);
  ajv.addKeyword({ keyword: 'x-anvil-scope' });
  return ajv;
}

export function newAjv(opts: Record<string, unknown> = {}) {
  return addOpenApiFormats(new Ajv2020.default({ strict: false, allErrors: false, ...opts }));
}

export { validationTemplate } from './spec.js';

type Validator = (operationId: string, given: ValidationInput) => ValidationOutcome;

/**
 * Validators already built in this process, by the document's text. openapi-backend compiles an
 * operation's Ajv validators on its first request (tens of milliseconds each); a process that builds
 * several apps from one document (the test batches, a restart in place) compiles each operation once.
 */
const built = new Map<string, Promise<Validator>>();
/** The same, by the document object: the text key costs a JSON.stringify of the whole spec (tens of ms). */
const builtFor = new WeakMap<OpenApiDocument, Promise<Validator>>();

export function createValidator(doc: OpenApiDocument): Promise<Validator> {
  const known = builtFor.get(doc);
  if (known) return known;
  const key = JSON.stringify(doc);
  let validator = built.get(key);
  if (!validator) {
    validator = buildValidator(doc);
    built.set(key, validator);
    validator.catch(() => {
      built.delete(key);
      builtFor.delete(doc);
    });
  }
  builtFor.set(doc, validator);
  return validator;
}

async function buildValidator(doc: OpenApiDocument): Promise<Validator> {
  // openapi-backend asks for a new Ajv for every operation's body and parameters; a new Ajv compiles the
  // JSON Schema meta-schema again to check the first schema it is given (about 20 ms, twice per operation,
  // on each operation's first request). One Ajv per option set serves every operation instead (the
  // schemas have no `$id`, so nothing they add can clash), and the schemas are not checked against the
  // meta-schema at all: the spec is linted (`make lint-spec`) and its schemas compiled by this very code in
  // the contract test, which would fail on a schema Ajv cannot compile.
  const ajvs = new Map<string, ReturnType<typeof newAjv>>();
  const sharedAjv = (ajvOpts: Record<string, unknown>) => {
    const key = JSON.stringify(ajvOpts);
    let ajv = ajvs.get(key);
    if (!ajv) ajvs.set(key, (ajv = newAjv({ ...ajvOpts, validateSchema: false })));
    return ajv;
  };
  const api = new OpenAPIBackend.default({
    // Not a copy: in quick mode openapi-backend dereferences a clone of its own (dereference-json-schema's
    // klona) and leaves the document it is given as it was; a structuredClone here was a third copy held (#41).
    definition: doc,
    quick: true,
    validate: true,
    coerceTypes: true,
    ajvOpts: { strict: false },
    // openapi-backend builds Ajv draft-07 by default, which silently ignores 2020-12 keywords.
    customizeAjv: (_ajv, ajvOpts) => sharedAjv(ajvOpts as Record<string, unknown>) as never,
  });
  // In quick mode openapi-backend dereferences the object it was given and never reads the document
  // loadDocument parses (a deep walk of the whole spec, a quarter of the build, #41): skipped.
  api.loadDocument = async () => api.document;
  await api.init();
  // By operation object, not id: openapi-backend finds an id by flattening every path of the spec again.
  const operations = new Map(api.router.getOperations().map((o) => [o.operationId!, o]));
  // openapi-backend's path parser splits `{index}.{diffType}` wrongly ("1.dif" and ""): such segments are
  // validated as two segments (router.ts builds the validated path the same way, with validationTemplate).
  for (const o of operations.values()) o.path = validationTemplate(o.path);
  const goDecoders = compileGoDecoders(doc);
  return (operationId, given) => {
    const operation = operations.get(operationId);
    if (!operation) throw new Error(`no operation ${operationId} in the spec`);
    // Go's spellings of "not given" (null, the zero time, "", `1`/`0` booleans) first, then the schema.
    const go = goDecoders.get(operationId);
    const req = { ...given, query: decodeGoQuery(given.query, go), body: decodeGoBody(given.body, go) };
    const result = api.validateRequest(req as never, operation);
    if (result.valid) {
      return { ok: true, path: result.coerced?.params as never, query: (result.coerced?.query ?? req.query) as never, body: req.body };
    }
    const err = result.errors![0]!;
    return { ok: false, message: describe(err) };
  };
}

interface AjvErr {
  instancePath: string;
  message?: string;
  keyword: string;
  params?: Record<string, unknown>;
}

/** `[field]: problem`, Gitea's shape, naming the JSON field rather than a Go one. */
function describe(err: AjvErr): string {
  const parts = err.instancePath.split('/').filter(Boolean);
  // openapi-backend validates {path, query, header, requestBody}; drop that wrapper from the name.
  const where = parts[0] === 'requestBody' ? parts.slice(1) : parts.slice(1);
  if (err.keyword === 'required' && err.params?.missingProperty) where.push(String(err.params.missingProperty));
  if (err.keyword === 'additionalProperties' && err.params?.additionalProperty) where.push(String(err.params.additionalProperty));
  const field = where.join('.') || (parts[0] === 'requestBody' || err.keyword === 'parse' ? 'body' : parts[0] ?? 'request');
  let problem = err.keyword === 'required' ? 'Required' : (err.message ?? 'invalid');
  if (err.keyword === 'enum' && Array.isArray(err.params?.allowedValues)) {
    problem = `must be one of ${(err.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `[${field}]: ${problem}`;
}
