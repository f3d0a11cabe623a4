// Raw `db.execute` results on either driver: postgres.js answers the rows as an array, PGlite an object with `.rows`.
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
