// One database handle for both engines: embedded PGlite (no DATABASE_URL) or PostgreSQL via postgres.js.
// Everything above this file sees only `Db`, so the same queries and tests run on both.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/postgres-js';
import { migrate as migratePg } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { fromRoot } from '../paths.js';
import * as schema from './schema/index.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the raw instance (tests dump it as a template). */
  pglite?: PGlite;
}

export const migrationsFolder = fromRoot('src', 'db', 'migrations');

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite-dir'; dir: string }
  | { kind: 'pglite-image'; image: Blob };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    const client = postgres(target.url, { max: 10, onnotice: () => {} });
    const db = drizzlePg(client, { schema, logger: !!process.env.ANVIL_SQL_LOG }) as unknown as Db;
    return {
      db,
      engine: 'postgres',
      // The advisory lock keeps several processes starting at once from migrating twice.
      async migrate() {
        const lock = await client.reserve();
        try {
          await lock`select pg_advisory_lock(7365821)`;
          await migratePg(drizzlePg(client), { migrationsFolder });
        } finally {
          await lock`select pg_advisory_unlock(7365821)`;
          lock.release();
        }
      },
      close: () => client.end({ timeout: 5 }),
    };
  }
  let pg: PGlite;
  // PostgreSQL's default 128 MB of shared buffers live inside PGlite's WebAssembly memory, and
  // PGlite's reads through Node's file system land in the OS page cache anyway: 64 MB keeps the idle
  // process near 250 MB instead of 330 MB. PGLITE_SHARED_BUFFERS sets another size (`128MB`).
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${process.env.PGLITE_SHARED_BUFFERS || '64MB'}`];
  if (target.kind === 'pglite-dir') {
    mkdirSync(target.dir, { recursive: true });
    pg = await PGlite.create(target.dir, { startParams });
  } else {
    pg = await PGlite.create({ loadDataDir: target.image, startParams });
  }
  const db = drizzlePglite(pg, { schema, logger: !!process.env.ANVIL_SQL_LOG }) as unknown as Db;
  return {
    db,
    engine: 'pglite',
    pglite: pg,
    migrate: () => migratePglite(drizzlePglite(pg), { migrationsFolder }),
    close: () => pg.close(),
  };
}

export function pgliteDir(dataDir: string): string {
  return join(dataDir, 'pg');
}
