/**
 * fast-check arbitraries that turn OpenAPI 3.1 operations into HTTP requests for the contract test:
 * schema-valid requests, and requests with exactly one thing broken on purpose.
 */
import fc from 'fast-check';

export type JsonSchema = Record<string, unknown>; // already dereferenced (no $ref left), JSON Schema 2020-12
export interface OperationShape {
  method: string;
  path: string;
  parameters: Array<{ name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: JsonSchema }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
}
export interface GeneratedRequest {
  path: Record<string, string>;
  query: Record<string, string | string[]>;
  body?: unknown;
  bodyKind: 'json' | 'multipart' | 'none';
  valid: boolean;
  broken?: string;
  /**
   * Go-client forms of "not given" the request carries (Go's `null` for an unset pointer, `""` for an
   * unset enum, the zero time, a ParseBool spelling): `go-null`, `go-empty-enum`, `go-zero-time`, `go-bool`.
   */
  goForm?: GoForm;
  /** The same request without the Go forms (members left out, booleans spelled `true`/`false`). */
  stripped?: GeneratedRequest;
}
export type GoForm = 'go-null' | 'go-empty-enum' | 'go-zero-time' | 'go-bool';
type Fixtures = Record<string, Array<string | number>>;
type Param = OperationShape['parameters'][number];
type Arb = fc.Arbitrary<unknown>;
type BodyPart = Pick<GeneratedRequest, 'body' | 'bodyKind'>;

const MAX_DEPTH = 3; // past this nesting only required members are generated (also ends self-referencing schemas)
const MAX_ITEMS = 4; // default array cap: keeps requests small and fast to replay
const MAX_FREE_STRING = 4096; // cap for strings without maxLength (several KB: long text must not break anything)
/** Cap for free strings in a URL: several of them percent-encoded must stay below Node's 16 KB request head. */
const MAX_URL_STRING = 400;

// ---------------------------------------------------------------- schema helpers

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: object, k: string) => Object.hasOwn(o, k); // never `in`: 'constructor' etc. live on the prototype
const len = (s: string) => [...s].length; // JSON Schema counts code points, not UTF-16 units
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
const typesOf = (s: JsonSchema): string[] | undefined =>
  s.type === undefined ? undefined : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
const propsOf = (s: JsonSchema) => (isObj(s.properties) ? (s.properties as Record<string, JsonSchema>) : {});
const requiredOf = (s: JsonSchema) => (Array.isArray(s.required) ? (s.required as string[]) : []);
const fitsLength = (s: JsonSchema, v: string) => len(v) >= (num(s.minLength) ?? 0) && len(v) <= (num(s.maxLength) ?? Infinity);

/** Folds allOf into a single schema: properties merged per key, required united, any other keyword: the later part wins. */
function flatten(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  return (allOf as JsonSchema[]).map(flatten).reduce(merge, rest);
}
function merge(a: JsonSchema, b: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...a, ...b };
  if (a.properties || b.properties) {
    const props = { ...propsOf(a) };
    for (const [k, v] of Object.entries(propsOf(b))) props[k] = has(props, k) ? merge(flatten(props[k]!), flatten(v)) : v;
    out.properties = props;
  }
  if (a.required || b.required) out.required = [...new Set([...requiredOf(a), ...requiredOf(b)])];
  return out;
}

const jsonType = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v === 'object' ? 'object' : typeof v;

/** JSON types a schema accepts, or undefined when it accepts any. */
function allowedTypes(raw: JsonSchema): Set<string> | undefined {
  const s = flatten(raw);
  if (has(s, 'const')) return new Set([jsonType(s.const)]);
  if (Array.isArray(s.enum)) return new Set(s.enum.map(jsonType));
  const branches = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches)) {
    const sets = branches.map((b) => allowedTypes({ ...b, type: b.type ?? s.type }));
    return sets.some((t) => !t) ? undefined : new Set(sets.flatMap((t) => [...t!]));
  }
  const t = typesOf(s);
  return t && new Set(t);
}
const accepts = (types: Set<string>, t: string) => types.has(t) || (t === 'integer' && types.has('number'));

// ---------------------------------------------------------------- schema-valid values

/** Values for schema-valid data. */
export function schemaArbitrary(schema: JsonSchema): fc.Arbitrary<unknown> {
  return gen(schema, 0);
}

function gen(raw: JsonSchema, depth: number): Arb {
  const s = flatten(raw);
  if (has(s, 'const')) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const branches = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches)) {
    // Sibling keywords (type, description, ...) apply to every branch. oneOf branches are assumed disjoint.
    const { oneOf, anyOf, ...rest } = s;
    return fc.oneof(...branches.map((b) => gen(merge(rest, flatten(b)), depth)));
  }
  const types = typesOf(s) ?? inferType(s);
  // A nullable member is null now and then, not every other time: the optional properties that loadSpec
  // marks nullable (Go clients' "not given", sent on purpose by goFormRequest) would otherwise keep an
  // operation whose success needs one of two optional members (branch protection's names) off its
  // success path for a whole run.
  if (types.length > 1) return fc.oneof(...types.map((type) => ({ arbitrary: gen({ ...s, type }, depth), weight: type === 'null' ? 1 : 6 })));
  switch (types[0]) {
    case 'null': return fc.constant(null);
    case 'boolean': return fc.boolean();
    case 'integer': return integerArb(s);
    case 'number': return numberArb(s);
    case 'string': return stringArb(s);
    case 'array': return arrayArb(s, depth);
    case 'object': return objectArb(s, depth);
    default: return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Untyped schemas accept anything; still, keywords like `properties` say what the author meant, so generate that. */
function inferType(s: JsonSchema): string[] {
  if (['properties', 'additionalProperties', 'required'].some((k) => has(s, k))) return ['object'];
  if (has(s, 'items')) return ['array'];
  if (['pattern', 'minLength', 'maxLength', 'format'].some((k) => has(s, k))) return ['string'];
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].some((k) => has(s, k))) return ['number'];
  return ['any'];
}

function integerArb(s: JsonSchema): Arb {
  const int32 = s.format === 'int32';
  const exMin = num(s.exclusiveMinimum), exMax = num(s.exclusiveMaximum);
  const min = Math.max(int32 ? -(2 ** 31) : Number.MIN_SAFE_INTEGER, Math.ceil(num(s.minimum) ?? -Infinity),
    exMin === undefined ? -Infinity : Math.floor(exMin) + 1);
  const max = Math.min(int32 ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER, Math.floor(num(s.maximum) ?? Infinity),
    exMax === undefined ? Infinity : Math.ceil(exMax) - 1);
  return fc.integer({ min, max }); // fast-check already biases towards 0 and both bounds
}

function numberArb(s: JsonSchema): Arb {
  const min = num(s.minimum), max = num(s.maximum), exMin = num(s.exclusiveMinimum), exMax = num(s.exclusiveMaximum);
  const useExMin = exMin !== undefined && exMin >= (min ?? -Infinity);
  const useExMax = exMax !== undefined && exMax <= (max ?? Infinity);
  return fc.double({
    noNaN: true, noDefaultInfinity: true, // neither survives JSON
    min: useExMin ? exMin : min, minExcluded: useExMin,
    max: useExMax ? exMax : max, maxExcluded: useExMax,
  });
}

const DATES = { min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true };
const FORMATS: Record<string, Arb> = {
  email: fc.emailAddress(),
  'date-time': fc.date(DATES).map((d) => d.toISOString()),
  date: fc.date(DATES).map((d) => d.toISOString().slice(0, 10)),
  uri: fc.webUrl({ withQueryParameters: true, withFragments: true }),
};

/** JSON Schema patterns are unanchored ECMA-262 regexes with unicode semantics. */
function toRegExp(pattern: string): RegExp {
  try { return new RegExp(pattern, 'u'); } catch { return new RegExp(pattern); }
}

function stringArb(s: JsonSchema): Arb {
  const min = num(s.minLength) ?? 0, max = num(s.maxLength);
  const fits = (v: unknown) => fitsLength(s, v as string);
  // Length bounds are enforced by filtering, so a pattern or format that cannot meet them never yields a value.
  if (typeof s.pattern === 'string') return fc.stringMatching(toRegExp(s.pattern), max === undefined ? {} : { maxLength: max }).filter(fits);
  const formatted = FORMATS[s.format as string];
  if (formatted) return formatted.filter(fits);
  return plainString(min, max ?? Math.max(min, MAX_FREE_STRING)); // other formats (binary, int64 strings, ...) are plain strings
}

// Single code points only, so fast-check's length (in units) equals the schema's length (in code points).
const TRICKY_UNITS = fc.constantFrom('a', 'Z', '0', '-', '_', ' ', '/', '.', '%', 'é', 'ß', '中', '😀', '\u0301');
const TRICKY_VALUES = ['', ' ', '/', '..', '%', '%2F', '../x', 'a/b', 'a b', 'ünïcødé', '😀', '中文', 'null'];

function plainString(min: number, max: number): Arb {
  const shortMax = Math.min(max, min + 20);
  const arbs: Array<{ weight: number; arbitrary: Arb }> = [
    { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: shortMax }) }, // any code point
    { weight: 3, arbitrary: fc.string({ unit: TRICKY_UNITS, minLength: min, maxLength: shortMax }) },
  ];
  const tricky = TRICKY_VALUES.filter((v) => len(v) >= min && len(v) <= max);
  if (tricky.length) arbs.push({ weight: 2, arbitrary: fc.constantFrom(...tricky) });
  if (max > shortMax) arbs.push({ weight: 2, arbitrary: longString(Math.max(min, shortMax + 1), max) });
  return fc.oneof(...arbs);
}

/**
 * A string of `lo` to `max` code points (several KB for free strings), built from a short random
 * motif: cheap to make, and it shrinks towards the shortest length.
 */
function longString(lo: number, max: number): fc.Arbitrary<string> {
  const motif = fc.oneof(fc.string({ unit: TRICKY_UNITS, minLength: 1, maxLength: 6 }), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 6 }));
  return fc.tuple(fc.integer({ min: lo, max }), motif).map(([n, m]) => {
    const units = [...m];
    return Array.from({ length: n }, (_, i) => units[i % units.length]).join('');
  });
}

/** Deep-equal values get the same key (object key order ignored), as uniqueItems requires. */
const stableKey = (v: unknown) =>
  JSON.stringify(v, (_k, x) => (isObj(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));

function arrayArb(s: JsonSchema, depth: number): Arb {
  const minLength = num(s.minItems) ?? 0;
  const maxLength = Math.max(minLength, Math.min(num(s.maxItems) ?? Infinity, depth >= MAX_DEPTH ? 0 : MAX_ITEMS));
  const item = isObj(s.items) ? gen(s.items, depth + 1) : fc.jsonValue({ maxDepth: 1 });
  return s.uniqueItems ? fc.uniqueArray(item, { minLength, maxLength, selector: stableKey }) : fc.array(item, { minLength, maxLength });
}

function objectArb(s: JsonSchema, depth: number): Arb {
  const props = propsOf(s), required = requiredOf(s);
  const deep = depth >= MAX_DEPTH;
  const extra = isObj(s.additionalProperties) ? s.additionalProperties : undefined;
  const model: Record<string, Arb> = {};
  for (const [k, ps] of Object.entries(props)) if (!deep || required.includes(k)) model[k] = gen(ps, depth + 1);
  for (const k of required) if (!has(model, k)) model[k] = extra ? gen(extra, depth + 1) : fc.jsonValue({ maxDepth: 1 });
  // Optional members: present about half the time. Plain prototypes, as JSON.parse would produce.
  const fixed = fc.record(model, { requiredKeys: required, noNullPrototype: true });
  if (!extra || deep) return fixed;
  const key = fc.string({ minLength: 1, maxLength: 10 }).filter((k) => !has(props, k) && !required.includes(k));
  return fc.tuple(fc.dictionary(key, gen(extra, depth + 1), { maxKeys: 3, noNullPrototype: true }), fixed).map(([e, f]) => ({ ...e, ...f }));
}

// ---------------------------------------------------------------- requests

/** How a client puts a value into a URL or a form field. */
const toParam = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
const paramsIn = (op: OperationShape, where: Param['in']) => op.parameters.filter((p) => p.in === where);
/** A client leaves out null parameters rather than sending 'null'. */
function withoutNull(s: JsonSchema): JsonSchema {
  const t = typesOf(s)?.filter((x) => x !== 'null');
  return t?.length ? { ...s, type: t } : s;
}

/** A string parameter's schema with a length cap that keeps the URL within what servers accept. */
function urlSized(s: JsonSchema): JsonSchema {
  const types = typesOf(s);
  if (types && !types.includes('string')) return s;
  if ((num(s.minLength) ?? 0) > MAX_URL_STRING) return s;
  return { ...s, maxLength: Math.min(num(s.maxLength) ?? MAX_URL_STRING, MAX_URL_STRING) };
}

function pathParamArb(p: Param, fixtures: Fixtures, knownOnly = false): fc.Arbitrary<string> {
  const s = urlSized(withoutNull(flatten(p.schema)));
  // An empty, '.' or '..' segment would be dropped or resolved by the URL and hit another route.
  const random = schemaArbitrary({ ...s, minLength: Math.max(1, num(s.minLength) ?? 0) })
    .map(toParam).filter((v) => v !== '' && v !== '.' && v !== '..');
  const known = fixtures[p.name];
  if (!known?.length) return random;
  if (knownOnly) return fc.constantFrom(...known.map(String));
  return fc.oneof({ weight: 7, arbitrary: fc.constantFrom(...known.map(String)) }, { weight: 3, arbitrary: random });
}

function queryParamArb(p: Param): fc.Arbitrary<string | string[]> {
  const s = withoutNull(flatten(p.schema));
  if (!typesOf(s)?.includes('array')) return schemaArbitrary(urlSized(s)).map(toParam);
  // An empty array serialises to nothing, which would read as a missing required parameter.
  const minItems = Math.max(p.required ? 1 : 0, num(s.minItems) ?? 0);
  const items = isObj(s.items) ? urlSized(s.items) : s.items;
  return schemaArbitrary({ ...s, type: 'array', minItems, items }).map((v) => (v as unknown[]).map(toParam));
}

function pickBody(op: OperationShape): { kind: 'json' | 'multipart'; schema: JsonSchema } | undefined {
  const content = op.requestBody?.content ?? {};
  const json = Object.keys(content).find((ct) => /[/+]json\b/i.test(ct));
  if (json) return { kind: 'json', schema: content[json]!.schema ?? {} };
  const form = content['multipart/form-data'];
  return form && { kind: 'multipart', schema: form.schema ?? {} };
}

const isFile = (raw: JsonSchema): boolean => {
  const s = flatten(raw);
  return s.format === 'binary' || typeof s.contentMediaType === 'string' || (isObj(s.items) && isFile(s.items));
};
const FILE = fc.record(
  {
    filename: fc.oneof(fc.constantFrom('a.txt', 'ünï cødé.bin', 'x'), fc.stringMatching(/^[\w.-]{1,20}$/)),
    content: fc.uint8Array({ maxLength: 64 }),
  },
  { noNullPrototype: true },
);

function multipartArb(schema: JsonSchema): Arb {
  const s = flatten(schema);
  const model: Record<string, Arb> = {};
  for (const [k, ps] of Object.entries(propsOf(s))) model[k] = isFile(ps) ? FILE : schemaArbitrary(ps).map(toParam);
  return fc.record(model, { requiredKeys: requiredOf(s).filter((k) => has(model, k)), noNullPrototype: true });
}

/** The request body; `force` makes an optional body present (needed to break something inside it). */
function bodyArb(op: OperationShape, force: boolean): fc.Arbitrary<BodyPart> {
  const picked = pickBody(op);
  const none = fc.constant<BodyPart>({ bodyKind: 'none' });
  if (!picked) return none;
  const present = (picked.kind === 'json' ? schemaArbitrary(picked.schema) : multipartArb(picked.schema))
    .map((body): BodyPart => ({ bodyKind: picked.kind, body }));
  return op.requestBody?.required || force ? present : fc.oneof({ weight: 4, arbitrary: present }, { weight: 1, arbitrary: none });
}

function requestArb(op: OperationShape, fixtures: Fixtures, body: fc.Arbitrary<BodyPart>, knownOnly = false): fc.Arbitrary<GeneratedRequest> {
  const pathModel = Object.fromEntries(paramsIn(op, 'path').map((p) => [p.name, pathParamArb(p, fixtures, knownOnly)]));
  const query = paramsIn(op, 'query');
  const queryModel = Object.fromEntries(query.map((p) => [p.name, queryParamArb(p)]));
  const requiredKeys = query.filter((p) => p.required).map((p) => p.name);
  const plain = { noNullPrototype: true };
  return fc.record({ path: fc.record(pathModel, plain), query: fc.record(queryModel, { requiredKeys, ...plain }), b: body })
    .map(({ path, query, b }) => ({ path, query, ...b, valid: true }));
}

/** `knownOnly`: path parameters only from `fixtures` where it has values for them (what exists is addressed). */
export function validRequest(op: OperationShape, fixtures: Fixtures = {}, knownOnly = false): fc.Arbitrary<GeneratedRequest> {
  return requestArb(op, fixtures, bodyArb(op, false), knownOnly);
}

// ---------------------------------------------------------------- breaking one thing

type Break = [what: string, bad: Arb];

/** Values of a JSON type the schema does not accept. */
function typeBreaks(s: JsonSchema): Break[] {
  const types = allowedTypes(s);
  if (!types) return [];
  const samples: Array<[string, unknown]> = [['string', 'wrong'], ['number', 1.5], ['integer', 7], ['boolean', true], ['null', null], ['array', []], ['object', {}]];
  const bad = samples.filter(([t]) => !accepts(types, t)).map(([, v]) => v);
  return bad.length ? [['wrong type', fc.constantFrom(...bad)]] : [];
}

const PROBES = ['', ' ', '-', '.', '!', '/', '..', '%', '\n', '😀', 'é', 'A', '0', 'abc', '_x', 'a b', '-lead', 'trail-', '@@@'];
const BAD_FORMATS: Record<string, string[]> = {
  email: ['not-an-email', 'a@', '@b.org', 'a b@c.org'],
  'date-time': ['yesterday', '2024-13-45T99:99:99Z', '2024-01-01'],
  date: ['2024-13-45', '01/02/2024', 'today'],
  uri: ['not a uri', '://x', 'http//missing-colon'],
};

/** Values of the right JSON type that violate one other keyword (enum, maxLength, pattern, format, bounds). */
function valueBreaks(raw: JsonSchema): Break[] {
  const s = flatten(raw), out: Break[] = [];
  const types = allowedTypes(s);
  const isString = !types || types.has('string'), isNumber = !types || accepts(types, 'integer');
  if (Array.isArray(s.enum) && s.enum.length) {
    const outside = (v: unknown) => !(s.enum as unknown[]).includes(v);
    if (isString) out.push(['outside enum', fc.string({ maxLength: 8 }).map((v) => `~${v}`).filter(outside)]);
    else if (isNumber) out.push(['outside enum', fc.integer({ min: -1000, max: 1000 }).filter(outside)]);
  }
  if (isString) {
    const maxLength = num(s.maxLength);
    if (maxLength !== undefined) out.push(['exceeds maxLength', fc.string({ unit: 'grapheme-ascii', minLength: maxLength + 1, maxLength: maxLength + 20 })]);
    // Probes keep the length within bounds, so only the pattern or the format is broken.
    const re = typeof s.pattern === 'string' ? toRegExp(s.pattern) : undefined;
    const badPattern = re ? PROBES.filter((p) => !re.test(p) && fitsLength(s, p)) : [];
    if (badPattern.length) out.push(['violates pattern', fc.constantFrom(...badPattern)]);
    const badFormat = (BAD_FORMATS[s.format as string] ?? []).filter((p) => fitsLength(s, p));
    if (badFormat.length) out.push([`invalid ${s.format}`, fc.constantFrom(...badFormat)]);
  }
  if (isNumber) {
    const max = num(s.maximum) ?? num(s.exclusiveMaximum), min = num(s.minimum) ?? num(s.exclusiveMinimum);
    if (max !== undefined && max + 1 > max) out.push(['above maximum', fc.constant(has(s, 'maximum') ? max + 1 : max)]);
    if (min !== undefined && min - 1 < min) out.push(['below minimum', fc.constant(has(s, 'minimum') ? min - 1 : min)]);
  }
  return out;
}

// Hostile input (issue #32): text no string may hold, numbers no integer column holds.
const WITH_NUL = ['\0', 'a\0b', 'main\0', '\0\0\0'];
const LONE_SURROGATES = ['\ud800', 'a\udc00b', 'x\ud83d', '\udfff\ud800'];
/** JSON numbers past int64 (JSON.stringify writes 2 ** 63 as 9223372036854776000). */
const BEYOND_INT64 = [2 ** 63, -(2 ** 64), 1e20, 1e300];
const BEYOND_INT64_TEXT = ['9223372036854775808', '-9223372036854775809', '18446744073709551616', '100000000000000000000'];
const BEYOND_INT32 = [2 ** 31, -(2 ** 31) - 1, 2 ** 32];
const BEYOND_INT32_TEXT = ['2147483648', '-2147483649', '4294967296'];

/** Integer schemas that are an integer only (not string or null as well), by width. */
function integerWidth(s: JsonSchema): 'int32' | 'int64' | undefined {
  const types = allowedTypes(s);
  if (!types || !types.has('integer') || types.has('number')) return undefined;
  return s.format === 'int32' ? 'int32' : 'int64';
}

/**
 * Values no server can take as they are: a NUL or a lone surrogate in text (JSON carries both; a URL
 * only the NUL, since clients send a lone surrogate as U+FFFD), integers past int64, or past int32 where
 * the spec says int32.
 */
function hostileBreaks(raw: JsonSchema, inUrl: boolean): Break[] {
  const s = flatten(raw), out: Break[] = [];
  const types = allowedTypes(s);
  const isText = (!types || types.has('string')) && !Array.isArray(s.enum) && !has(s, 'const');
  if (isText) {
    out.push(['contains NUL', fc.constantFrom(...WITH_NUL)]);
    if (!inUrl) out.push(['lone surrogate', fc.constantFrom(...LONE_SURROGATES)]);
  }
  const width = integerWidth(s);
  if (width) {
    out.push(['beyond int64', inUrl ? fc.constantFrom(...BEYOND_INT64_TEXT) : fc.constantFrom(...BEYOND_INT64)]);
    if (width === 'int32') out.push(['beyond int32', inUrl ? fc.constantFrom(...BEYOND_INT32_TEXT) : fc.constantFrom(...BEYOND_INT32)]);
  }
  return out;
}

// Strings that are no integer to Gitea (decimal only), though JavaScript would read '1e3', ' 1', '0x1A' as numbers.
const NOT_INTEGER = ['abc', '1.5', '12abc', 'one', '1e3', ' 1', '0x1A'];
const NOT_NUMBER = ['abc', '12abc', 'one'];
const NOT_BOOLEAN = ['maybe', 'nope'];

/** Bad strings for a parameter: non-numeric text for numeric types, plus value breaks stringified. */
function paramBreaks(raw: JsonSchema, withValues: boolean): Break[] {
  const s = withoutNull(flatten(raw));
  const types = allowedTypes(s);
  const out: Break[] = [];
  if (types && !types.has('string')) {
    if (types.has('integer') && !types.has('number')) out.push(['not an integer', fc.constantFrom(...NOT_INTEGER)]);
    else if (types.has('number')) out.push(['not a number', fc.constantFrom(...NOT_NUMBER)]);
    else if (types.has('boolean')) out.push(['not a boolean', fc.constantFrom(...NOT_BOOLEAN)]);
  }
  if (withValues) for (const [what, bad] of valueBreaks(s)) out.push([what, bad.map(toParam)]);
  for (const [what, bad] of hostileBreaks(s, true)) out.push([what, bad.map(toParam)]);
  return out;
}

const spoil = (r: GeneratedRequest, broken: string): GeneratedRequest => ({ ...r, valid: false, broken });

/**
 * One arbitrary per way of breaking the request (each path or query parameter, each body member, and
 * each of their keywords: wrong type, missing, out of range, outside the enum, too long, bad pattern or
 * format, an extra member, hostile text and numbers); every request it makes has exactly that one thing
 * broken. `make fuzz` runs each of them (its invalid-request sweep), so no kind of break is left to chance.
 */
export function invalidRequestKinds(op: OperationShape, fixtures: Fixtures = {}, knownOnly = false): Array<fc.Arbitrary<GeneratedRequest>> {
  return breakers(op, fixtures, knownOnly);
}

function breakers(op: OperationShape, fixtures: Fixtures, knownOnly = false): Array<fc.Arbitrary<GeneratedRequest>> {
  const out: Array<fc.Arbitrary<GeneratedRequest>> = [];
  const plain = validRequest(op, fixtures, knownOnly);
  /** Generates a valid request from `base`, then applies `apply` with one bad value. */
  const add = (base: fc.Arbitrary<GeneratedRequest>, bad: Arb, broken: string, apply: (r: GeneratedRequest, v: unknown) => GeneratedRequest) =>
    out.push(fc.tuple(base, bad).map(([r, v]) => spoil(apply(r, v), broken)));

  for (const p of paramsIn(op, 'path'))
    // Path strings are free-form in practice: numbers break, and any text with a NUL in it.
    for (const [what, bad] of paramBreaks(p.schema, false))
      add(plain, bad, `path.${p.name}: ${what}`, (r, v) => {
        // A NUL goes after the value drawn (mostly a fixture's name), so the rest of the request stays reachable.
        const value = what === 'contains NUL' ? `${r.path[p.name] ?? ''}${v as string}` : (v as string);
        return { ...r, path: { ...r.path, [p.name]: value } };
      });

  for (const p of paramsIn(op, 'query')) {
    const s = withoutNull(flatten(p.schema));
    const isArray = typesOf(s)?.includes('array');
    // For array parameters one bad item is sent: its items schema is what gets broken.
    for (const [what, bad] of paramBreaks(isArray && isObj(s.items) ? s.items : s, true))
      add(plain, bad, `query.${p.name}: ${what}`, (r, v) => ({ ...r, query: { ...r.query, [p.name]: isArray ? [v as string] : (v as string) } }));
    if (p.required)
      add(plain, fc.constant(0), `query.${p.name}: missing required`, (r) => {
        const { [p.name]: _, ...query } = r.query;
        return { ...r, query };
      });
  }

  const picked = pickBody(op);
  if (picked?.kind === 'json') {
    for (const [what, bad] of typeBreaks(picked.schema))
      add(requestArb(op, fixtures, bodyArb(op, true), knownOnly), bad, `body: ${what}`, (r, v) => ({ ...r, body: v }));
    // Field-level breaks need an object body whose members are listed directly (after allOf); oneOf bodies are skipped.
    const flat = flatten(picked.schema);
    const props = propsOf(flat), required = requiredOf(flat);
    if (!Object.keys(props).length && !required.length) return out;
    const base = requestArb(op, fixtures, schemaArbitrary({ ...flat, type: 'object' }).map((body): BodyPart => ({ bodyKind: 'json', body })), knownOnly);
    const setField = (r: GeneratedRequest, k: string, v: unknown) => ({ ...r, body: { ...(r.body as object), [k]: v } });
    // A member the schema does not list, where it forbids others.
    if (flat.additionalProperties === false)
      add(base, fc.string({ minLength: 1, maxLength: 8 }).map((k) => `~${k}`).filter((k) => !has(props, k)), 'body: extra property where forbidden', (r, k) => setField(r, k as string, 1));
    for (const k of required)
      add(base, fc.constant(0), `body.${k}: missing required`, (r) => {
        const { [k]: _, ...body } = r.body as Record<string, unknown>;
        return { ...r, body };
      });
    for (const [k, ps] of Object.entries(props)) {
      for (const [what, bad] of [...typeBreaks(ps), ...valueBreaks(ps), ...hostileBreaks(ps, false)]) add(base, bad, `body.${k}: ${what}`, (r, v) => setField(r, k, v));
      // A member that is one of several shapes (an object or null, ...): one member of an object branch broken.
      const fs = flatten(ps);
      for (const branch of ((fs.oneOf ?? fs.anyOf) as JsonSchema[] | undefined) ?? []) {
        const b = flatten(branch);
        if (!isObj(b.properties)) continue;
        const inner = fc.tuple(base, schemaArbitrary({ ...b, type: 'object' }));
        for (const [kk, pss] of Object.entries(propsOf(b)))
          for (const [what, bad] of [...typeBreaks(pss), ...valueBreaks(pss), ...hostileBreaks(pss, false)])
            out.push(fc.tuple(inner, bad).map(([[r, obj], v]) => spoil(setField(r, k, { ...(obj as object), [kk]: v }), `body.${k}.${kk}: ${what}`)));
      }
    }
  } else if (picked?.kind === 'multipart') {
    const flat = flatten(picked.schema);
    for (const k of requiredOf(flat))
      add(requestArb(op, fixtures, bodyArb(op, true), knownOnly), fc.constant(0), `multipart.${k}: missing required part`, (r) => {
        const { [k]: _, ...body } = r.body as Record<string, unknown>;
        return { ...r, body };
      });
  }
  return out;
}

export function invalidRequest(op: OperationShape, fixtures: Fixtures = {}): fc.Arbitrary<GeneratedRequest> {
  const candidates = breakers(op, fixtures);
  // Nothing to break (no parameters or body with constraints): a valid request, honestly flagged.
  return candidates.length ? fc.oneof(...candidates) : validRequest(op, fixtures);
}

// ---------------------------------------------------------------- Go-client forms of "not given"

/** How Go's strconv.ParseBool spells true and false (Gitea reads boolean query parameters with it). */
const PARSE_BOOL: Record<string, string[]> = { true: ['1', 't', 'T', 'TRUE', 'True'], false: ['0', 'f', 'F', 'FALSE', 'False'] };
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

/** The Go form a client sends for an optional body member it leaves unset, by the member's schema. */
function goFormOf(raw: JsonSchema): GoForm {
  const s = flatten(raw);
  const types = allowedTypes(s);
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string' || v === null) && !s.enum.includes('')) return 'go-empty-enum';
  if (s.format === 'date-time' && (!types || types.has('string'))) return 'go-zero-time';
  return 'go-null';
}
const GO_VALUES: Record<Exclude<GoForm, 'go-bool'>, unknown> = { 'go-null': null, 'go-empty-enum': '', 'go-zero-time': GO_ZERO_TIME };

/**
 * A valid request as a Go client (the SDK, tea, the Terraform provider) sends it: its unset optional
 * body members as `null` (or `""` for an enum, the zero time for a date), or its boolean query
 * parameters spelled as ParseBool reads them. One kind of form per request, so a refusal names it.
 * `stripped` is the same request as other clients send it; both must be answered alike.
 */
export function goFormRequest(op: OperationShape, fixtures: Fixtures = {}): fc.Arbitrary<GeneratedRequest> | undefined {
  const out: Array<fc.Arbitrary<GeneratedRequest>> = [];
  const picked = pickBody(op);
  if (picked?.kind === 'json') {
    const flat = flatten(picked.schema);
    const required = new Set(requiredOf(flat));
    const optional = Object.entries(propsOf(flat)).filter(([k]) => !required.has(k));
    const base = requestArb(op, fixtures, bodyArb(op, true)).filter((r) => isObj(r.body));
    for (const form of ['go-null', 'go-empty-enum', 'go-zero-time'] as const) {
      const members = optional.filter(([, ps]) => goFormOf(ps) === form).map(([k]) => k);
      if (!members.length) continue;
      out.push(base.map((r) => {
        const body = r.body as Record<string, unknown>;
        const unset = members.filter((k) => !has(body, k));
        if (!unset.length) return r;
        const filled = { ...body, ...Object.fromEntries(unset.map((k) => [k, GO_VALUES[form]])) };
        return { ...r, body: filled, goForm: form, stripped: r };
      }));
    }
  }
  const bools = paramsIn(op, 'query').filter((p) => typesOf(withoutNull(flatten(p.schema)))?.join() === 'boolean');
  if (bools.length) {
    const spelling = fc.tuple(...bools.map(() => fc.nat(4)));
    out.push(fc.tuple(validRequest(op, fixtures), spelling).map(([r, picks]) => {
      const query = { ...r.query };
      let changed = false;
      bools.forEach((p, i) => {
        const v = query[p.name];
        if (typeof v !== 'string' || !PARSE_BOOL[v]) return;
        query[p.name] = PARSE_BOOL[v]![picks[i]!]!;
        changed = true;
      });
      return changed ? { ...r, query, goForm: 'go-bool' as const, stripped: r } : r;
    }));
  }
  return out.length ? fc.oneof(...out) : undefined;
}

export function anyRequest(op: OperationShape, fixtures: Fixtures = {}): fc.Arbitrary<GeneratedRequest> {
  const go = goFormRequest(op, fixtures);
  return fc.oneof(
    { weight: 3, arbitrary: validRequest(op, fixtures) },
    { weight: 2, arbitrary: invalidRequest(op, fixtures) },
    ...(go ? [{ weight: 1, arbitrary: go }] : []),
  );
}
