// Rows that come back from PostgreSQL as JSON (`row_to_json`, `json_agg`) keyed by column name,
// turned into the same objects Drizzle's own selects return (property names, Dates, numbers). This is
// how one query returns an object together with its related rows.
import { getTableColumns, sql, type InferSelectModel, type Table } from 'drizzle-orm';

type Converter = (json: Record<string, unknown>) => Record<string, unknown>;
const converters = new WeakMap<Table, Converter>();

// JSON types that need no conversion: text, booleans and numbers come out of JSON as the model has them.
const asIsTypes: Record<string, 'string' | 'boolean' | 'number'> = {
  PgText: 'string', PgVarchar: 'string', PgBoolean: 'boolean',
  PgInteger: 'number', PgSmallInt: 'number', PgSerial: 'number', PgBigInt53: 'number', PgBigSerial53: 'number',
};

/**
 * The table's converter, compiled once: one object literal with every property (a repository list
 * converts ~90 columns per row, and an object built by adding properties one by one cost twice as much),
 * each column's value taken as is where JSON already has the model's type, else through the column's
 * mapFromDriverValue. Keys and names come from the schema, quoted by JSON.stringify.
 */
function converterOf(table: Table): Converter {
  let f = converters.get(table);
  if (!f) {
    const cols = Object.entries(getTableColumns(table));
    const fields = cols.map(([prop, col], i) => {
      const asIs = asIsTypes[col.columnType];
      const value = `(v = j[${JSON.stringify(col.name)}]) === null || v === undefined ? null : ${asIs ? `typeof v === '${asIs}' ? v : ` : ''}c[${i}].mapFromDriverValue(v)`;
      return `${JSON.stringify(prop)}: ${value}`;
    });
    f = new Function('c', `return function (j) { let v; return { ${fields.join(', ')} }; };`)(cols.map(([, col]) => col)) as Converter;
    converters.set(table, f);
  }
  return f;
}

/** One JSON row (column names as keys) as the table's select model. */
export function rowFromJson<T extends Table>(table: T, json: Record<string, unknown>): InferSelectModel<T> {
  return converterOf(table)(json) as InferSelectModel<T>;
}

export function rowsFromJson<T extends Table>(table: T, json: Array<Record<string, unknown>> | null | undefined): Array<InferSelectModel<T>> {
  return (json ?? []).map((r) => rowFromJson(table, r));
}

/**
 * A whole row of `table` as one JSON column (`row_to_json`), for hot queries: decoding one JSON text
 * costs PGlite's protocol reader a third of what decoding ~50 typed columns does (GET repository's row
 * and owner: 0.4 ms instead of 1.1 ms), and costs postgres.js no more. `name` is the table's name or
 * alias in the query. Read back with `rowFromJson`.
 */
export function jsonRow(name: string) {
  return sql<Record<string, unknown>>`row_to_json(${sql.identifier(name)})`;
}
