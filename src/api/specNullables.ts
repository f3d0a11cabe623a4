// The spec as loaded (loadSpec) and served (/swagger.v1.json, the docs page): every optional property of a
// request body also accepts `null` (#43). That is what the request path makes true: goDecode.ts turns such
// a null into "not given" before validation, so handlers never see one; the generated types, made from
// spec/openapi.yaml as written, stay without those nulls. Done here once rather than on hundreds of
// properties of the YAML.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const typesOf = (s: Obj): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []);
function nullable(prop: Obj): Obj {
  if (typeof prop.$ref === 'string') {
    const { $ref, ...rest } = prop;
    return { ...rest, anyOf: [{ $ref }, { type: 'null' }] };
  }
  const types = typesOf(prop);
  if (types.includes('null')) return prop;
  for (const k of ['oneOf', 'anyOf'] as const) {
    const branches = prop[k] as Obj[] | undefined;
    if (!branches) continue;
    if (branches.some((b) => typesOf(b).includes('null'))) return prop;
    return { ...prop, [k]: [...branches, { type: 'null' }] };
  }
  if (types.length === 0) {
    const { description, ...rest } = prop;
    return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
  }
  const out: Obj = { ...prop, type: [...types, 'null'] };
  if (Array.isArray(prop.enum) && !prop.enum.includes(null)) out.enum = [...prop.enum, null];
  return out;
}

/**
 * Marks every optional request-body property (at any depth) of the document as also accepting `null`, in
 * place (loadSpec hands it a document it has just parsed), and answers it. Marking a marked document again
 * changes nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function withGoNullables<T extends Record<string, any>>(doc: T): T {
  const schemas: Obj = doc.components?.schemas ?? {};
  const done = new Set<Obj>();
  const walk = (node: unknown, depth: number): void => {
    if (!isObj(node) || depth > 64 || done.has(node)) return;
    done.add(node);
    if (typeof node.$ref === 'string') {
      const m = /^#\/components\/schemas\/(.+)$/.exec(node.$ref);
      if (m) walk(schemas[m[1]!], depth + 1);
    }
    const required = new Set((node.required as string[] | undefined) ?? []);
    const props = node.properties as Obj | undefined;
    if (isObj(props)) {
      for (const [name, p] of Object.entries(props)) {
        if (!isObj(p)) continue;
        walk(p, depth + 1);
        if (!required.has(name)) props[name] = nullable(p);
      }
    }
    for (const k of ['allOf', 'oneOf', 'anyOf'] as const) for (const b of (node[k] as unknown[] | undefined) ?? []) walk(b, depth + 1);
    walk(node.items, depth + 1);
    walk(node.additionalProperties, depth + 1);
  };
  for (const item of Object.values<Obj>(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      if (!isObj(op) || !isObj(op.requestBody)) continue;
      const json = (op.requestBody.content as Obj | undefined)?.['application/json'];
      if (!isObj(json) || !isObj(json.schema)) continue;
      walk(json.schema, 0);
    }
  }
  return doc;
}
