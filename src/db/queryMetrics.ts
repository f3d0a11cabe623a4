// Every query drizzle sends, timed into `anvil_db_query_duration_seconds` (src/metrics.ts). Both engines'
// prepared-query classes funnel each execution (execute, all, relational queries, transactions' queries)
// through PgPreparedQuery#queryWithCache with the SQL text; overriding it on the two engine classes times
// them all for one performance.now() pair and one observe (a hot path, #13). Statements sent outside
// drizzle (BEGIN/COMMIT, migrations, advisory locks) are not counted. The same hook tells in-process
// caches which tables a write touched (src/db/tableWrites.ts), before it is sent and after it is done.
import { PgPreparedQuery } from 'drizzle-orm/pg-core';
import { PglitePreparedQuery } from 'drizzle-orm/pglite';
import { PostgresJsPreparedQuery } from 'drizzle-orm/postgres-js';
import { dbInFlight, dbQueryDuration } from '../metrics.js';
import { noteStatement } from './tableWrites.js';

export type Engine = 'pglite' | 'postgres';

const kinds = ['select', 'insert', 'update', 'delete'] as const;

/** The statement kind of a query: its first word when it is one of the four, else `other` (`with`, DDL...). */
export function statementKind(sql: string): (typeof kinds)[number] | 'other' {
  let i = 0;
  while (i < sql.length && sql.charCodeAt(i) <= 32) i++;
  const word = sql.slice(i, i + 6).toLowerCase();
  return (kinds as readonly string[]).includes(word) && (sql.length === i + 6 || sql.charCodeAt(i + 6) <= 32 || sql.charCodeAt(i + 6) === 40)
    ? (word as (typeof kinds)[number])
    : 'other';
}

type RunQuery = (this: PgPreparedQuery<never>, queryString: string, params: unknown[], query: () => Promise<unknown>) => Promise<unknown>;

let installed = false;

/** Times every drizzle query of both engines (once per process). */
export function instrumentQueries(): void {
  if (installed) return;
  installed = true;
  const base = (PgPreparedQuery.prototype as unknown as { queryWithCache: RunQuery }).queryWithCache;
  for (const [engine, cls] of [['pglite', PglitePreparedQuery], ['postgres', PostgresJsPreparedQuery]] as const) {
    // The label sets resolved once per engine; per query only the statement kind is picked.
    const timers = Object.fromEntries(
      [...kinds, 'other'].map((k) => [k, dbQueryDuration.labels({ engine, statement: k })]),
    ) as Record<ReturnType<typeof statementKind>, ReturnType<typeof dbQueryDuration.labels>>;
    (cls.prototype as unknown as { queryWithCache: RunQuery }).queryWithCache = async function (queryString, params, query) {
      const started = performance.now();
      const kind = statementKind(queryString);
      if (kind !== 'select') noteStatement(queryString);
      dbInFlight[engine]++;
      try {
        return await base.call(this, queryString, params, query);
      } finally {
        dbInFlight[engine]--;
        if (kind !== 'select') noteStatement(queryString);
        timers[kind].observe((performance.now() - started) / 1000);
      }
    };
  }
}
