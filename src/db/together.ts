// Independent reads sent as one statement: `select (<read a>) as "r0", (<read b>) as "r1"`, each read a
// scalar JSON expression with the function that turns its value into what its service answers. On
// PGlite, whose one connection runs statements one after the other, two reads cost one statement; on
// PostgreSQL one round trip and one connection instead of two. A service that offers a read also
// answers it alone (readAlone), so each query is written once.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client.js';
import { jsonColumn, rowsOf } from './raw.js';

export interface JsonRead<T> {
  /** A scalar expression of JSON (`coalesce(json_agg(...), '[]'::json)`, say). */
  sql: SQL;
  map: (json: unknown) => T;
}


export async function readTogether<A, B>(db: Db, a: JsonRead<A>, b: JsonRead<B>): Promise<[A, B]> {
  const [row] = rowsOf<{ r0: unknown; r1: unknown }>(await db.execute(sql`select (${a.sql}) as "r0", (${b.sql}) as "r1"`));
  return [a.map(jsonColumn(row!.r0)), b.map(jsonColumn(row!.r1))];
}

export async function readAlone<T>(db: Db, read: JsonRead<T>): Promise<T> {
  const [row] = rowsOf<{ r0: unknown }>(await db.execute(sql`select (${read.sql}) as "r0"`));
  return read.map(jsonColumn(row!.r0));
}
