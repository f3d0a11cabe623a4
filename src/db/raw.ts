// Raw `db.execute` results on either driver: postgres.js answers the rows as an array, PGlite an object with `.rows`.
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** A JSON column of a raw statement: parsed by both drivers as configured, but never trusted to be. */
export const jsonColumn = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);
