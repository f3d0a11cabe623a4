// On PGlite, in-process caches of rows (the token → user cache of authentication) learn here that a
// statement wrote one of their tables (src/db/changes.ts's feed for PGlite). Every statement drizzle
// sends passes through `noteStatement` (installed with the query timing, src/db/queryMetrics.ts): an
// insert, update or delete naming a watched table bumps that table's generation, once when it is sent and
// again when it is done. A cache keeps the generation it read at and drops an entry read at an older one.
// That is exact where one process on one connection owns the database (PGlite); on PostgreSQL the feed
// listens to the database's own notifications instead, which count every process's writes.

const generations = new Map<string, number>();
const watched: Array<{ name: string; quoted: string }> = [];

/** The table's current generation (0 until a write); watching starts at the first call. */
export function tableGeneration(table: string): number {
  if (!generations.has(table)) {
    generations.set(table, 0);
    watched.push({ name: table, quoted: `"${table}"` });
  }
  return generations.get(table)!;
}

/** Called for every statement that is not a select, with its SQL text. */
export function noteStatement(sql: string): void {
  for (const t of watched) {
    if (sql.includes(t.quoted)) generations.set(t.name, generations.get(t.name)! + 1);
  }
}
