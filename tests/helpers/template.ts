// Migrated database templates, made once per test run: a PGlite data-dir image, or a PostgreSQL
// database that each test file clones with CREATE DATABASE ... TEMPLATE.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import postgres from 'postgres';
import { openDatabase } from '../../src/db/client.js';

/**
 * Builds a PGlite image with every migration applied and writes it to `file`. Every test file unpacks
 * it into a new PGlite, which costs in proportion to its size and file count: the image is made with
 * 1 MB WAL segments (initdb's default is 16 MB, almost all zeros) and without the template0 and
 * template1 databases, which nothing here uses. 19 MB and 750 files instead of 44 MB and 1,350: half
 * the CPU time of each start.
 */
export async function writePgliteTemplate(file: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pgliteExtensions } = await import('../../src/db/client.js');
  const pg = await PGlite.create({ initDbStartParams: ['--wal-segsize=1'], extensions: pgliteExtensions });
  const db = await openDatabaseFromPglite(pg);
  await db.migrate();
  await pg.query(oauthKeysInsert, oauthKeysParams());
  for (const name of ['template0', 'template1']) {
    await pg.exec(`alter database ${name} is_template false`);
    await pg.exec(`drop database ${name}`);
  }
  await pg.exec('checkpoint');
  const image = await pg.dumpDataDir('none');
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  await pg.close();
}

async function openDatabaseFromPglite(pg: import('@electric-sql/pglite').PGlite) {
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const { migrationsFolder } = await import('../../src/db/client.js');
  return { migrate: () => migrate(drizzle(pg), { migrationsFolder }) };
}

export function readPgliteTemplate(file: string): Blob {
  return new Blob([readFileSync(file)]);
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export function maintenance(url: string) {
  return postgres(withDatabase(url, 'postgres'), { max: 1, onnotice: () => {} });
}

/** Creates (fresh) and migrates the template database named in `url`. */
export async function preparePostgresTemplate(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = maintenance(url);
  try {
    const exists = await admin`select 1 from pg_database where datname = ${name}`;
    if (exists.length === 0) await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ kind: 'postgres', url });
  await database.migrate();
  await database.close();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(oauthKeysInsert, oauthKeysParams());
  } finally {
    await sql.end();
  }
}

/**
 * The OAuth2 provider's keys, made once for the whole run: the first start of an app on an empty
 * database makes a 2048-bit RSA key (about half a second of CPU), which every test app would pay again.
 * The batch runner's emptying of a shared PGlite keeps this table (tests/helpers/harness.ts).
 */
const oauthKeysInsert = 'insert into oauth2_keys (id, jwks, cookie_keys) values (1, $1::text::jsonb, $2::text::jsonb) on conflict do nothing';
function oauthKeysParams(): [string, string] {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
  return [JSON.stringify({ keys: [jwk] }), JSON.stringify([randomBytes(32).toString('base64url')])];
}

/** Drops the template and every per-file clone of it. */
export async function dropPostgresDatabases(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = maintenance(url);
  try {
    const rows = await admin`select datname from pg_database where datname = ${name} or datname like ${name + '_f%'}`;
    for (const { datname } of rows) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
  } finally {
    await admin.end();
  }
}
