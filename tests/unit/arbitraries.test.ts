import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  schemaArbitrary, validRequest, invalidRequest, anyRequest,
  type JsonSchema, type OperationShape, type GeneratedRequest,
} from '../../fuzz/arbitraries.js';

import type { Ajv2020 as Ajv2020Class } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';

// Both are CommonJS: depending on the loader the default import is the export itself or wraps it in .default.
const cjs = <T>(m: unknown): T => ((m as { default?: T }).default ?? m) as T;
const AjvClass = cjs<typeof Ajv2020Class>(Ajv2020);
const formats = cjs<FormatsPlugin>(addFormats);
function makeAjv(opts: Record<string, unknown> = {}) {
  const ajv = new AjvClass({ strict: false, allErrors: true, ...opts });
  formats(ajv);
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) }); // OpenAPI formats
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => n === (n | 0) });
  ajv.addFormat('binary', true);
  return ajv;
}
const ajv = makeAjv();
const coercing = makeAjv({ coerceTypes: 'array' });
const RUNS = { numRuns: 150 };

const user: JsonSchema = {
  type: 'object',
  required: ['username', 'email'],
  additionalProperties: false,
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 40, pattern: '^[\\da-zA-Z][-.\\w]*$' },
    email: { type: 'string', format: 'email', maxLength: 254 },
    full_name: { type: 'string', maxLength: 100 },
    visibility: { type: 'string', enum: ['', 'public', 'limited', 'private'] },
    admin: { type: 'boolean' },
    source_id: { type: 'integer', format: 'int64', minimum: 0 },
    created: { type: 'string', format: 'date-time' },
    birthday: { type: 'string', format: 'date' },
    website: { type: 'string', format: 'uri' },
    avatar: { type: 'string', format: 'binary' },
    note: { type: 'string' },
  },
};
const nested: JsonSchema = {
  type: 'object',
  required: ['matrix'],
  properties: {
    matrix: { type: 'array', minItems: 1, items: { type: 'array', maxItems: 3, items: { type: 'integer', minimum: 0, maximum: 9 } } },
    tags: { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['a', 'b', 'c', 'd', 'e'] } },
    labels: { type: 'array', uniqueItems: true, items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, color: { type: 'string' } } } },
    ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
  },
};
const composed: JsonSchema = {
  allOf: [
    { type: 'object', required: ['id'], properties: { id: { type: 'integer', exclusiveMinimum: 0 } } },
    {
      properties: {
        owner: { oneOf: [user, { type: 'null' }] }, // a nullable $ref as OpenAPI 3.1 documents write it
        description: { type: ['string', 'null'], maxLength: 10 },
        kind: { const: 'repo' },
        meta: { type: 'object', additionalProperties: { type: 'integer' } },
        extra: {},
      },
    },
  ],
};
const scalars: JsonSchema[] = [
  { type: 'string', pattern: '^[a-z]+$', minLength: 3, maxLength: 5 },
  { type: 'string', pattern: 'ab', maxLength: 6 },
  { type: 'string', minLength: 2, maxLength: 4 },
  { type: 'string', maxLength: 0 },
  { type: 'string', format: 'email' },
  { type: 'string', format: 'date-time' },
  { type: 'string', format: 'date' },
  { type: 'string', format: 'uri' },
  { type: 'integer', format: 'int64' },
  { type: 'integer', format: 'int32', minimum: -5, exclusiveMaximum: 5 },
  { type: 'number' },
  { enum: [1, 'two', null] },
  { type: ['integer', 'boolean', 'null'] },
  {},
];

for (const [name, schema] of Object.entries({ user, nested, composed, ...Object.fromEntries(scalars.map((s, i) => [`scalar${i}`, s])) })) {
  test(`schemaArbitrary values validate: ${name} ${JSON.stringify(schema).slice(0, 50)}`, () => {
    const validate = ajv.compile(schema);
    fc.assert(fc.property(schemaArbitrary(schema), (v) => validate(v) || fail(v, validate.errors)), RUNS);
  });
}

/** A break by a hostile value (NUL, a lone surrogate, past int64/int32): invalid by the server's rules, not the schema's. */
const hostile = (broken: string) => /: (contains NUL|lone surrogate|beyond int64|beyond int32)$/.test(broken);

function fail(value: unknown, errors: unknown): boolean {
  throw new Error(`${JSON.stringify(value)} -> ${JSON.stringify(errors)}`);
}

test('strings cover empty, tricky and long values', () => {
  const seen = fc.sample(schemaArbitrary({ type: 'string' }), 2000) as string[];
  assert.ok(seen.includes(''));
  for (const part of [' ', '/', '..', '%']) assert.ok(seen.some((s) => s.includes(part)), part);
  assert.ok(seen.some((s) => /[^\x00-\x7f]/.test(s)), 'unicode');
  // Several KB at most (the contract test's cap for strings without maxLength; long text must break nothing).
  assert.ok(seen.some((s) => s.length > 150) && seen.every((s) => [...s].length <= 4096), 'long but bounded');
});

const createUser: OperationShape = {
  method: 'post',
  path: '/admin/users',
  parameters: [],
  requestBody: { required: true, content: { 'application/json': { schema: user } } },
};
const editRepo: OperationShape = {
  method: 'patch',
  path: '/repos/{owner}/{repo}',
  parameters: [
    { name: 'owner', in: 'path', required: true, schema: { type: 'string' } },
    { name: 'repo', in: 'path', required: true, schema: { type: 'string' } },
  ],
  requestBody: { content: { 'application/json': { schema: composed } } },
};
const listIssues: OperationShape = {
  method: 'get',
  path: '/repos/{owner}/{repo}/issues/{index}',
  parameters: [
    { name: 'owner', in: 'path', required: true, schema: { type: 'string' } },
    { name: 'repo', in: 'path', required: true, schema: { type: 'string' } },
    { name: 'index', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } },
    { name: 'state', in: 'query', schema: { type: 'string', enum: ['open', 'closed', 'all'] } },
    { name: 'page', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } },
    { name: 'since', in: 'query', schema: { type: 'string', format: 'date-time' } },
    { name: 'labels', in: 'query', schema: { type: 'array', items: { type: 'integer' } } },
    { name: 'q', in: 'query', schema: { type: 'string', maxLength: 5 } },
    { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
  ],
};
const upload: OperationShape = {
  method: 'post',
  path: '/repos/{owner}/{repo}/releases/{id}/assets',
  parameters: [{ name: 'owner', in: 'path', required: true, schema: { type: 'string' } }],
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', required: ['attachment'], properties: { attachment: { type: 'string', format: 'binary' }, name: { type: 'string' }, size: { type: 'integer' } } },
      },
    },
  },
};
const version: OperationShape = { method: 'get', path: '/version', parameters: [] };
const fixtures = { owner: ['alice', 'org1'], repo: ['hello'], index: [1, 2] };

const bodySchema = (op: OperationShape) => op.requestBody!.content['application/json']!.schema;
const isString = (v: unknown) => typeof v === 'string';

for (const op of [createUser, editRepo]) {
  test(`validRequest bodies validate (${op.path})`, () => {
    const validate = ajv.compile(bodySchema(op));
    fc.assert(fc.property(validRequest(op, fixtures), (r) => {
      assert.ok(r.valid && r.broken === undefined);
      if (op.requestBody?.required) assert.is(r.bodyKind, 'json');
      return r.bodyKind === 'none' || validate(r.body) || fail(r.body, validate.errors);
    }), RUNS);
  });

  test(`invalidRequest bodies that broke the body do not validate (${op.path})`, () => {
    const validate = ajv.compile(bodySchema(op));
    const seen = new Set<string>();
    fc.assert(fc.property(invalidRequest(op, fixtures), (r) => {
      assert.ok(!r.valid && typeof r.broken === 'string');
      seen.add(r.broken!.replace(/:.*/, ''));
      if (!r.broken!.startsWith('body')) return true;
      assert.is(r.bodyKind, 'json');
      // Hostile values break the server's text and integer rules (api/textInput.ts, int64), not the schema.
      if (hostile(r.broken!)) return true;
      return !validate(r.body) || fail(r, 'validated although broken');
    }), { numRuns: 400 });
    assert.ok(seen.has('body'), 'non-object bodies are sent');
  });
}

test('invalid body breaks cover each kind', () => {
  const kinds = new Set(fc.sample(invalidRequest(createUser), 3000).map((r) => r.broken!.replace(/^[^:]*: /, '')));
  for (const k of ['missing required', 'wrong type', 'exceeds maxLength', 'outside enum', 'violates pattern', 'invalid email', 'invalid date-time', 'below minimum'])
    assert.ok(kinds.has(k), k);
});

// Query and path values are strings on the wire; a server validates them after coercion, as here (wrapped so coercion can write back).
const paramValidators = new Map(listIssues.parameters.map((p) => [p.name, coercing.compile({ type: 'object', properties: { v: p.schema } })]));
// The router's rule on top of the validator: integers (alone or in arrays) are decimal digits only.
const integerParams = new Set(listIssues.parameters.filter((p) => {
  const s = p.schema as { type?: string; items?: { type?: string } };
  return s.type === 'integer' || (s.type === 'array' && s.items?.type === 'integer');
}).map((p) => p.name));
const paramValid = (name: string, v: unknown) =>
  (!integerParams.has(name) || [v].flat().every((x) => typeof x !== 'string' || /^[+-]?\d+$/.test(x)))
  && paramValidators.get(name)!({ v: Array.isArray(v) ? [...v] : v });

test('parameters: strings on the wire, fixtures mixed in, valid after coercion', () => {
  const samples = fc.sample(validRequest(listIssues, fixtures), 1000);
  for (const r of samples) {
    assert.equal(Object.keys(r.path).sort(), ['index', 'owner', 'repo']);
    assert.ok(Object.values(r.path).every((v) => isString(v) && v !== '' && v !== '..'));
    assert.ok(Number.isInteger(Number(r.path.index)), r.path.index);
    assert.ok(isString(r.query.page));
    for (const [k, v] of Object.entries(r.query)) {
      assert.ok(Array.isArray(v) ? v.every(isString) : isString(v), k);
      assert.ok(paramValid(k, v), `${k}=${JSON.stringify(v)}`);
    }
    assert.is(r.bodyKind, 'none');
  }
  const known = samples.filter((r) => fixtures.owner.includes(r.path.owner!)).length / samples.length;
  assert.ok(known > 0.55 && known < 0.85, `fixture share ${known}`);
});

test('parameter breaks: non-integer path and query values, missing required, bad values', () => {
  const byWhat = new Map<string, GeneratedRequest>();
  for (const r of fc.sample(invalidRequest(listIssues, fixtures), 2000)) byWhat.set(r.broken!, r);
  for (const what of ['path.index: not an integer', 'query.page: not an integer', 'query.page: missing required', 'query.page: below minimum',
    'query.state: outside enum', 'query.since: invalid date-time', 'query.labels: not an integer', 'query.q: exceeds maxLength'])
    assert.ok(byWhat.has(what), what);
  for (const [what, r] of byWhat) {
    const [where, name] = what.split(/[.:]/) as [string, string];
    if (what.endsWith('missing required')) assert.not.ok(name in r.query);
    else if (!hostile(what)) assert.not.ok(paramValid(name, where === 'path' ? r.path[name] : r.query[name]), what);
  }
});

test('multipart: file parts, missing required part', () => {
  for (const r of fc.sample(validRequest(upload, fixtures), 200)) {
    assert.is(r.bodyKind, 'multipart');
    const body = r.body as Record<string, unknown>;
    const file = body.attachment as { filename: string; content: Uint8Array };
    assert.ok(isString(file.filename) && file.content instanceof Uint8Array);
    if ('size' in body) assert.ok(isString(body.size));
  }
  const breaks = new Set<string>();
  for (const r of fc.sample(invalidRequest(upload, fixtures), 200)) {
    breaks.add(r.broken!);
    if (r.broken === 'multipart.attachment: missing required part') assert.not.ok('attachment' in (r.body as object));
    else assert.ok(hostile(r.broken!) && r.broken!.startsWith('path.'), r.broken);
  }
  assert.ok(breaks.has('multipart.attachment: missing required part'));
});

test('nothing to break: falls back to valid; anyRequest mixes', () => {
  assert.ok(fc.sample(invalidRequest(version), 50).every((r) => r.valid && r.bodyKind === 'none'));
  const share = fc.sample(anyRequest(createUser), 2000).filter((r) => r.valid).length / 2000;
  assert.ok(share > 0.5 && share < 0.7, `valid share ${share}`);
});

test.run();
