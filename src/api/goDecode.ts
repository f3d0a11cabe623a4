// Go's decoding semantics, applied to every request before the spec's schemas judge it (#43).
//
// Gitea's clients are mostly Go (the SDK, tea, Woodpecker, terraform-provider-gitea), and Gitea reads
// requests with encoding/json and strconv. So the spellings of "not given" a Go client sends mean
// "not given" here too:
//   - `null` for an optional body property: absent (Go leaves a nil pointer, or the zero value, alone);
//   - the Go zero time (`0001-01-01T00:00:00Z`) for an optional date: absent (Gitea checks IsZero and
//     uses "now" or nothing), or what the property's `x-anvil-zero-time` says (issue and pull-request
//     edits remove the deadline, as Gitea's EditIssue does with a zero `due_date`);
//   - `""` for an optional string enum that does not list `""`: absent (an unset Go string);
//   - an empty query value: absent (Gitea's ctx.FormString cannot tell them apart);
//   - a query boolean in any form strconv.ParseBool reads (`1`, `t`, `T`, `TRUE`, `true`, `True` and the
//     false ones). Integers are read as strconv.ParseInt does by the router (`DECIMAL_INTEGER`).
// Required stays required: a `null` for a required property reaches the validator, which refuses it.
//
// Everything is driven by the spec: each operation's body schema and query parameters are walked once
// (`compileGoDecoders`) into a small plan, so a request only looks up the keys it actually sent.
import type { OpenApiDocument } from './spec.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What Go's encoding/json writes for time.Time{}; any spelling of that instant is the zero time. */
export const GO_ZERO_TIME = '0001-01-01T00:00:00Z';
const zeroMs = Date.parse(GO_ZERO_TIME);

export function isGoZeroTime(v: unknown): boolean {
  // Go's IsZero compares the instant: `0001-01-01T01:00:00+01:00` is the zero time too.
  return typeof v === 'string' && (v.startsWith('0001-') || v.startsWith('0000-')) && Date.parse(v) === zeroMs;
}

/** strconv.ParseBool's accepted spellings. */
export const PARSE_BOOL: Readonly<Record<string, 'true' | 'false'>> = {
  '1': 'true', t: 'true', T: 'true', TRUE: 'true', true: 'true', True: 'true',
  '0': 'false', f: 'false', F: 'false', FALSE: 'false', false: 'false', False: 'false',
};

interface PropPlan {
  optional: boolean;
  /** A string enum without `""`: an empty string is an unset Go string. */
  blankIsAbsent: boolean;
  /** A date-time: the zero time is an unset time.Time. */
  date: boolean;
  /** Set on the enclosing object instead when the property holds the zero time (`x-anvil-zero-time`). */
  zeroTime?: Obj;
  child?: NodePlan;
}

interface NodePlan {
  props?: Map<string, PropPlan>;
  /** additionalProperties' schema (a map's values). */
  values?: NodePlan;
  items?: NodePlan;
}

interface QueryPlan {
  optional: Set<string>;
  booleans: Set<string>;
}

export interface GoDecoder {
  query?: QueryPlan;
  body?: NodePlan;
  /** The body is a JSON object: a top-level `null` is Go's zero struct, `{}`. */
  objectBody: boolean;
}

const typesOf = (s: Obj): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []);

function compileSchemas(doc: OpenApiDocument) {
  const memo = new Map<Obj, NodePlan | undefined>();
  const resolve = (s: unknown): Obj | undefined => {
    let node = s;
    for (let i = 0; i < 32 && isObj(node) && typeof node.$ref === 'string'; i++) {
      const path = (node.$ref as string).replace(/^#\//, '').split('/');
      node = path.reduce<unknown>((n, p) => (isObj(n) ? n[p.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
    }
    return isObj(node) ? node : undefined;
  };

  /** The object shapes a schema may take: itself, its allOf parts and its oneOf/anyOf branches. */
  const shapes = (s: Obj, out: Obj[] = [], depth = 0): Obj[] => {
    if (depth > 16) return out;
    out.push(s);
    for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
      for (const b of (s[k] as unknown[] | undefined) ?? []) {
        const r = resolve(b);
        if (r) shapes(r, out, depth + 1);
      }
    }
    return out;
  };

  const plan = (schema: unknown): NodePlan | undefined => {
    const s = resolve(schema);
    if (!s) return undefined;
    if (memo.has(s)) return memo.get(s);
    const node: NodePlan = {};
    memo.set(s, node); // before walking: a schema that contains itself ends here
    const parts = shapes(s);
    const required = new Set<string>();
    const propSchemas = new Map<string, Obj[]>();
    for (const p of parts) {
      for (const r of (p.required as string[] | undefined) ?? []) required.add(r);
      for (const [name, ps] of Object.entries((p.properties as Obj | undefined) ?? {})) {
        const r = resolve(ps);
        if (!r) continue;
        // `x-anvil-zero-time` may sit beside a $ref.
        const list = propSchemas.get(name) ?? [];
        list.push(isObj(ps) && ps !== r ? { ...r, ...ps, $ref: undefined } : r);
        propSchemas.set(name, list);
      }
      if (isObj(p.additionalProperties)) node.values ??= plan(p.additionalProperties);
      if (p.items !== undefined) node.items ??= plan(p.items);
    }
    if (propSchemas.size) {
      node.props = new Map();
      for (const [name, list] of propSchemas) {
        const all = list.flatMap((x) => shapes(x));
        const strings = all.filter((x) => typesOf(x).includes('string') || Array.isArray(x.enum));
        const enumValues = strings.flatMap((x) => (Array.isArray(x.enum) ? (x.enum as unknown[]) : []));
        const zeroTime = list.map((x) => x['x-anvil-zero-time']).find(isObj);
        node.props.set(name, {
          optional: !required.has(name),
          blankIsAbsent: enumValues.length > 0 && !enumValues.includes('') && strings.every((x) => Array.isArray(x.enum)),
          date: all.some((x) => x.format === 'date-time'),
          zeroTime,
          child: list.map(plan).find((c) => c !== undefined && !isEmpty(c)),
        });
      }
    }
    const done = isEmpty(node) ? undefined : node;
    memo.set(s, done ?? node);
    return done;
  };
  return { plan, resolve, shapes };
}

const isEmpty = (n: NodePlan) => !n.props && !n.values && !n.items;

/** One decoder per operationId, computed once from the spec. */
export function compileGoDecoders(doc: OpenApiDocument): Map<string, GoDecoder> {
  const { plan, resolve, shapes } = compileSchemas(doc);
  const out = new Map<string, GoDecoder>();
  for (const item of Object.values<Obj>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!isObj(op) || typeof op.operationId !== 'string' || method === 'parameters') continue;
      const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map(resolve);
      const query: QueryPlan = { optional: new Set(), booleans: new Set() };
      for (const p of params) {
        if (!p || p.in !== 'query') continue;
        const name = p.name as string;
        if (!p.required) query.optional.add(name);
        const schema = resolve(p.schema);
        const kinds = schema ? [...typesOf(schema), ...typesOf(resolve(schema.items) ?? {})] : [];
        if (kinds.includes('boolean')) query.booleans.add(name);
      }
      const bodySchema = resolve((resolve(op.requestBody)?.content as Obj | undefined)?.['application/json'] as unknown);
      const body = bodySchema ? plan(bodySchema.schema) : undefined;
      const resolved = bodySchema ? resolve(bodySchema.schema) : undefined;
      const objectBody = !!resolved && shapes(resolved).some((x) => typesOf(x).includes('object'));
      out.set(op.operationId, {
        query: query.optional.size || query.booleans.size ? query : undefined,
        body,
        objectBody,
      });
    }
  }
  return out;
}

function decodeQueryValue(name: string, v: string, plan: QueryPlan): string {
  // Own keys only: `constructor` or `__proto__` is a word like any other, not a boolean.
  return plan.booleans.has(name) && Object.hasOwn(PARSE_BOOL, v) ? PARSE_BOOL[v]! : v;
}

/** The query as Gitea reads it: empty optional values dropped, booleans in strconv.ParseBool's forms. */
export function decodeGoQuery(query: Record<string, string | string[]>, decoder: GoDecoder | undefined): Record<string, string | string[]> {
  const plan = decoder?.query;
  if (!plan) return query;
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) {
      const kept = v.filter((x) => x !== '' || !plan.optional.has(k)).map((x) => decodeQueryValue(k, x, plan));
      if (kept.length) out[k] = kept.length === 1 ? kept[0]! : kept;
    } else if (v !== '' || !plan.optional.has(k)) {
      out[k] = decodeQueryValue(k, v, plan);
    }
  }
  return out;
}

function decodeNode(value: unknown, node: NodePlan, depth: number): void {
  if (depth > 64) return;
  if (Array.isArray(value)) {
    if (node.items) for (const v of value) decodeNode(v, node.items, depth + 1);
    return;
  }
  if (!isObj(value)) return;
  let extra: Obj | undefined;
  for (const k of Object.keys(value)) {
    const p = node.props?.get(k);
    const v = value[k];
    if (!p) {
      if (node.values && !node.props?.has(k)) decodeNode(v, node.values, depth + 1);
      continue;
    }
    if (p.optional) {
      if (v === null || (v === '' && p.blankIsAbsent)) {
        delete value[k];
        continue;
      }
      if (p.date && isGoZeroTime(v)) {
        delete value[k];
        if (p.zeroTime) extra = { ...extra, ...p.zeroTime };
        continue;
      }
    }
    if (p.child && v !== null && typeof v === 'object') decodeNode(v, p.child, depth + 1);
  }
  if (extra) Object.assign(value, extra);
}

/** The body as Go would have decoded it (changed in place). A top-level `null` stays: it is no request. */
export function decodeGoBody(body: unknown, decoder: GoDecoder | undefined): unknown {
  if (!decoder) return body;
  if (decoder.body && body !== null && typeof body === 'object') decodeNode(body, decoder.body, 0);
  return body;
}

