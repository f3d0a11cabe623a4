// Every operation of the spec, as a Go client spells "not given" (#43): for each optional body property
// `null` (and `""` for a string enum without `""`, the zero time for a date) is accepted and changes
// nothing; a required one stays required; every boolean query parameter reads every strconv.ParseBool
// form; an empty optional query value is the same as none. Run through the request path's own
// validation step (createValidator: goDecode, then the schemas), on a schema-valid request per operation.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { GO_ZERO_TIME, PARSE_BOOL } from '../../src/api/goDecode.js';
import { loadSpec, specOperations, type SpecOperation } from '../../src/api/spec.js';
import { createValidator, validationTemplate, type ValidationOutcome } from '../../src/api/validate.js';
import { validRequest, type GeneratedRequest, type JsonSchema } from '../../fuzz/arbitraries.js';
import { dereference, operationShape } from '../../fuzz/openapi.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const doc = loadSpec();
const deref = dereference(doc);
const ops = specOperations(doc);
const validate = await createValidator(doc);

function run(op: SpecOperation, req: GeneratedRequest, query = req.query, body = req.bodyKind === 'json' ? req.body : req.bodyKind === 'multipart' ? {} : undefined): ValidationOutcome {
  const path = validationTemplate(op.path).replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(String(req.path[n] ?? '')));
  return validate(op.operationId, { method: op.method, path, headers: {}, query: { ...query }, body: structuredClone(body) });
}

/** A schema-valid request for the operation (the contract test's generator, fixed seed), or undefined. */
function baseline(op: SpecOperation): GeneratedRequest | undefined {
  for (const numRuns of [5, 60]) {
    const hit = fc.sample(validRequest(operationShape(deref, op)), { numRuns, seed: 43 }).find((r) => run(op, r).ok);
    if (hit) return hit;
  }
  return undefined;
}

const short = (v: unknown) => JSON.stringify(v).slice(0, 160);
const typesOf = (s: Obj): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []);

/** The schema's own object shape: allOf parts and oneOf/anyOf branches folded together. */
function parts(s: Obj): Obj[] {
  return [s, ...['allOf', 'oneOf', 'anyOf'].flatMap((k) => ((s[k] as Obj[] | undefined) ?? []).filter(isObj).flatMap(parts))];
}

interface Prop {
  path: string[];
  schema: Obj;
  required: boolean;
}

/** The properties of `value` (and of the objects it holds) that its schema declares. */
function propsIn(schema: Obj, value: unknown, prefix: string[] = [], depth = 0): Prop[] {
  if (!isObj(value) || depth > 4) return [];
  const all = parts(schema);
  const required = new Set(all.flatMap((p) => (p.required as string[] | undefined) ?? []));
  const out: Prop[] = [];
  for (const p of all) {
    for (const [name, ps] of Object.entries((p.properties as Obj | undefined) ?? {})) {
      if (!isObj(ps) || out.some((o) => o.path.at(-1) === name && o.path.length === prefix.length + 1)) continue;
      out.push({ path: [...prefix, name], schema: ps, required: required.has(name) });
      out.push(...propsIn(ps, value[name], [...prefix, name], depth + 1));
    }
  }
  return out;
}

function withValue(body: unknown, path: string[], v: unknown): unknown {
  const copy = structuredClone(body) as Obj;
  let node = copy;
  for (const k of path.slice(0, -1)) {
    if (!isObj(node[k])) node[k] = {};
    node = node[k] as Obj;
  }
  if (v === undefined) delete node[path.at(-1)!];
  else node[path.at(-1)!] = v;
  return copy;
}

const stringEnum = (s: Obj): unknown[] | undefined => {
  const ps = parts(s);
  const strings = ps.filter((x) => typesOf(x).includes('string') || Array.isArray(x.enum));
  const values = strings.flatMap((x) => (Array.isArray(x.enum) ? x.enum : []));
  return values.length && strings.every((x) => Array.isArray(x.enum)) ? values : undefined;
};
const acceptsNull = (s: Obj) => parts(s).some((x) => typesOf(x).includes('null') || (Array.isArray(x.enum) && x.enum.includes(null)));

const baselines = new Map<string, GeneratedRequest>();
test('a schema-valid request is found for every operation', () => {
  const none: string[] = [];
  for (const op of ops) {
    const r = baseline(op);
    if (r) baselines.set(op.operationId, r);
    else none.push(op.operationId);
  }
  assert.equal(none, [], 'operations without a valid sample request');
});

/** Each operation with a JSON body and a valid sample request: its schema and the sample's body. */
function* jsonBodies() {
  for (const op of ops) {
    const req = baselines.get(op.operationId);
    const schema = (deref.paths[op.path][op.method].requestBody?.content?.['application/json']?.schema ?? undefined) as Obj | undefined;
    if (!req || !schema || req.bodyKind !== 'json') continue;
    yield { op, req, schema, body: isObj(req.body) ? req.body : {} };
  }
}

test('null for an optional body property (at any depth) is the property left out; required stays required', () => {
  let checked = 0;
  const failures: string[] = [];
  for (const { op, req, schema, body } of jsonBodies()) {
    for (const prop of propsIn(schema, { ...body, ...fillAbsent(schema, body) })) {
      const where = `${op.operationId} ${prop.path.join('.')}`;
      const given = run(op, req, req.query, withValue(body, prop.path, null));
      if (prop.required) {
        if (!acceptsNull(prop.schema) && given.ok) failures.push(`${where}: null accepted for a required property`);
        continue;
      }
      const absent = withValue(body, prop.path, undefined);
      const left = run(op, req, req.query, absent);
      if (given.ok !== left.ok) failures.push(`${where}: null ${given.ok ? 'accepted' : given.message} but absent ${left.ok ? 'accepted' : left.message}`);
      else if (given.ok) {
        checked++;
        // Parents the test created to hold the null are empty objects both ways.
        if (JSON.stringify(given.body) !== JSON.stringify(left.body)) failures.push(`${where}: ${short(given.body)} != ${short(left.body)}`);
      }
    }
  }
  assert.equal(failures, []);
  assert.ok(checked > 300, `only ${checked} optional properties checked`);
});

/** Empty objects for the optional object-valued properties the sample left out, so their members are reached too. */
function fillAbsent(schema: Obj, body: Obj): Obj {
  const out: Obj = {};
  for (const p of parts(schema)) {
    for (const [name, ps] of Object.entries((p.properties as Obj | undefined) ?? {})) {
      if (body[name] === undefined && isObj(ps) && parts(ps).some((x) => isObj(x.properties))) out[name] = {};
    }
  }
  return out;
}

test('"" for an optional string enum without "" and the Go zero time for an optional date are left out', () => {
  let enums = 0;
  let dates = 0;
  const failures: string[] = [];
  for (const { op, req, schema, body } of jsonBodies()) {
    for (const prop of propsIn(schema, body)) {
      if (prop.required) continue;
      const where = `${op.operationId} ${prop.path.join('.')}`;
      const values = stringEnum(prop.schema);
      const isDate = parts(prop.schema).some((x) => x.format === 'date-time');
      if (!(values && !values.includes('')) && !isDate) continue;
      const absent = withValue(body, prop.path, undefined);
      const left = run(op, req, req.query, absent);
      if (!left.ok) continue;
      const zeroExtra = parts(prop.schema).map((x) => x['x-anvil-zero-time']).find(isObj);
      const expected = isDate && zeroExtra ? { ...(absent as Obj), ...zeroExtra } : absent;
      const want = run(op, req, req.query, expected);
      const given = run(op, req, req.query, withValue(body, prop.path, isDate ? GO_ZERO_TIME : ''));
      if (!given.ok) failures.push(`${where}: ${given.message}`);
      else if (JSON.stringify(given.body) !== JSON.stringify(want.body)) failures.push(`${where}: ${short(given.body)} != ${short(want.body)}`);
      if (isDate) dates++;
      else enums++;
    }
  }
  assert.equal(failures, []);
  assert.ok(enums >= 10, `only ${enums} enum properties checked`);
  assert.ok(dates >= 5, `only ${dates} date properties checked`);
});

test('every boolean query parameter reads every strconv.ParseBool form; other words are refused', () => {
  let checked = 0;
  const failures: string[] = [];
  for (const op of ops) {
    const req = baselines.get(op.operationId);
    if (!req) continue;
    const params = operationShape(deref, op).parameters.filter((p) => p.in === 'query' && parts(p.schema as Obj).some((x) => typesOf(x).includes('boolean')));
    for (const p of params) {
      for (const [form, want] of Object.entries(PARSE_BOOL)) {
        const got = run(op, req, { ...req.query, [p.name]: form });
        if (!got.ok || got.query?.[p.name] !== (want === 'true')) failures.push(`${op.operationId} ${p.name}=${form}: ${got.ok ? JSON.stringify(got.query?.[p.name]) : got.message}`);
      }
      for (const bad of ['yes', 'on', 'tRUE', '2', 'constructor', '__proto__']) {
        if (run(op, req, { ...req.query, [p.name]: bad }).ok) failures.push(`${op.operationId} ${p.name}=${bad} accepted`);
      }
      checked++;
    }
  }
  assert.equal(failures, []);
  assert.ok(checked >= 20, `only ${checked} boolean query parameters checked`);
});

test('an empty value for any optional query parameter is the parameter left out', () => {
  let checked = 0;
  const failures: string[] = [];
  for (const op of ops) {
    const req = baselines.get(op.operationId);
    if (!req) continue;
    for (const p of operationShape(deref, op).parameters) {
      if (p.in !== 'query' || p.required) continue;
      const { [p.name]: _, ...without } = req.query;
      const left = run(op, req, without);
      const given = run(op, req, { ...without, [p.name]: '' });
      if (!left.ok) continue;
      if (!given.ok) failures.push(`${op.operationId} ${p.name}=: ${given.message}`);
      else if (JSON.stringify(given.query) !== JSON.stringify(left.query)) failures.push(`${op.operationId} ${p.name}=: ${JSON.stringify(given.query)}`);
      checked++;
    }
  }
  assert.equal(failures, []);
  assert.ok(checked >= 100, `only ${checked} query parameters checked`);
});

test('a top-level null body is no request: 422, not an empty option set', () => {
  const got = validate('createCurrentUserRepo', { method: 'post', path: '/user/repos', headers: {}, query: {}, body: null });
  assert.is(got.ok, false);
});

test.run();
