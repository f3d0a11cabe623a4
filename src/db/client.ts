// One database handle for both engines: embedded PGlite (no DATABASE_URL) or PostgreSQL via postgres.js.
// Everything above this file sees only `Db`, so the same queries and tests run on both.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/postgres-js';
import { migrate as migratePg } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { dbPoolMax } from '../metrics.js';
import { fromRoot } from '../paths.js';
import { inProcessChanges, PostgresChanges, setChangeFeed, type ChangeFeed } from './changes.js';
import { PgliteStatementCache } from './pgliteStatements.js';
import { preparePolicy, preparing } from './pgPrepared.js';
import { instrumentQueries } from './queryMetrics.js';
import * as schema from './schema/index.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /**
   * Applies the migrations, then runs `firstStart` (the first administrator and other work every start
   * checks for) while still holding the migration lock: processes starting together on one database
   * do it one after the other, each seeing what the previous one did.
   */
  migrate(firstStart?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
  /** How in-process caches learn of writes by any process (src/db/changes.ts). */
  changes: ChangeFeed;
  /** PGlite only: the raw instance (tests dump it as a template). */
  pglite?: PGlite;
  /** A cluster-wide lock (see `TryLock`). */
  tryLock: TryLock;
}

/**
 * Takes the lock named `key` unless someone holds it: answers its release, or null when it is held. On
 * PostgreSQL a session advisory lock on a connection reserved for the holder (every process on the
 * database sees it; a dead holder's connection closes and frees it); on PGlite, whose data folder one
 * process opens, a lock in this process.
 */
export type TryLock = (key: string) => Promise<(() => Promise<void>) | null>;

/** The advisory lock ids of `key`: anvil's namespace and a 32-bit hash of the key. */
export function lockIds(key: string): [number, number] {
  let h = 0x811c9dc5;
  for (const c of Buffer.from(key)) h = Math.imul(h ^ c, 0x01000193);
  return [0x616e76, h | 0];
}

/** The in-process lock: PGlite's, and the first step on PostgreSQL (one holder per process too). */
export function localTryLock(): TryLock {
  const held = new Set<string>();
  return async (key) => {
    if (held.has(key)) return null;
    held.add(key);
    return async () => void held.delete(key);
  };
}

export const migrationsFolder = fromRoot('src', 'db', 'migrations');

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite-dir'; dir: string }
  | { kind: 'pglite-image'; image: Blob };

/** Connections one process may open to PostgreSQL. */
const POOL_MAX = 10;

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  instrumentQueries();
  if (target.kind === 'postgres') {
    const client = postgres(target.url, { max: POOL_MAX, onnotice: () => {} });
    dbPoolMax.set({ engine: 'postgres' }, POOL_MAX);
    const localLock = localTryLock();
    const named = preparing(client, preparePolicy(process.env.DATABASE_PREPARE !== 'false'));
    const db = drizzlePg(named, { schema, logger: !!process.env.ANVIL_SQL_LOG }) as unknown as Db;
    const changes = new PostgresChanges(target.url);
    setChangeFeed(db, changes);
    return {
      db,
      engine: 'postgres',
      changes,
      // The advisory lock keeps several processes starting at once from migrating twice, or from
      // doing the first start's work twice.
      async migrate(firstStart) {
        const lock = await client.reserve();
        try {
          await lock`select pg_advisory_lock(7365821)`;
          await migratePg(drizzlePg(client), { migrationsFolder });
          await firstStart?.();
        } finally {
          await lock`select pg_advisory_unlock(7365821)`;
          lock.release();
        }
      },
      tryLock: async (key) => {
        const local = await localLock(key);
        if (!local) return null;
        const [ns, id] = lockIds(key);
        const conn = await client.reserve().catch(async (err) => {
          await local();
          throw err;
        });
        let ok = false;
        try {
          const [row] = await conn<{ ok: boolean }[]>`select pg_try_advisory_lock(${ns}::int, ${id}::int) as ok`;
          ok = row?.ok === true;
        } finally {
          if (!ok) {
            conn.release();
            await local();
          }
        }
        if (!ok) return null;
        return async () => {
          try {
            await conn`select pg_advisory_unlock(${ns}::int, ${id}::int)`;
          } finally {
            conn.release();
            await local();
          }
        };
      },
      close: async () => {
        await changes.close();
        await client.end({ timeout: 5 });
      },
    };
  }
  let pg: PGlite;
  // PostgreSQL's default 128 MB of shared buffers live inside PGlite's WebAssembly memory, and
  // PGlite's reads through Node's file system land in the OS page cache anyway: 32 MB keeps the idle
  // server on existing data near 275 MB (64 MB: 320 MB, over the 300 MB target of `make bench`; the
  // default 128 MB: 400 MB). PGLITE_SHARED_BUFFERS sets another size (`128MB`).
  const startParams = pgliteStartParams();
  if (target.kind === 'pglite-dir') {
    mkdirSync(target.dir, { recursive: true });
    pg = await PGlite.create(target.dir, { startParams, extensions: pgliteExtensions });
  } else {
    pg = await PGlite.create({ loadDataDir: target.image, startParams, extensions: pgliteExtensions });
  }
  const db = drizzlePglite(PgliteStatementCache.client(pg), { schema, logger: !!process.env.ANVIL_SQL_LOG }) as unknown as Db;
  dbPoolMax.set({ engine: 'pglite' }, 1);
  return {
    db,
    engine: 'pglite',
    pglite: pg,
    tryLock: localTryLock(),
    changes: inProcessChanges,
    // One process opens the data folder (src/db/lock.ts): nobody to wait for.
    async migrate(firstStart) {
      await migratePglite(drizzlePglite(pg), { migrationsFolder });
      await firstStart?.();
    },
    close: () => pg.close(),
  };
}

/**
 * The PostgreSQL extensions the migrations create (`pg_trgm`: the trigram indexes of issue and code
 * search, #41). PGlite loads an extension's code only when told at start, so every PGlite that opens
 * anvil's database (the server, the test template, the bench) passes these.
 */
export const pgliteExtensions = { pg_trgm };

/** PGlite's start parameters: anvil's, and the bench reference's, so both run with the same buffers. */
export function pgliteStartParams(): string[] {
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${process.env.PGLITE_SHARED_BUFFERS || '32MB'}`];
}

export function pgliteDir(dataDir: string): string {
  return join(dataDir, 'pg');
}
