// Drizzle's queries go to PostgreSQL as named prepared statements (one round trip each, not two), for a
// bounded number of distinct texts; DATABASE_PREPARE=false turns it off.
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { preparePolicy, preparing } from '../../src/db/pgPrepared.js';
import { users } from '../../src/db/schema/index.js';
import { maintenance, withDatabase } from '../helpers/template.js';

type Call = { query: string; params?: unknown[]; options?: { prepare?: boolean } };

/** A stand-in for postgres.js that records what `unsafe` is asked, with a `begin` that hands out another. */
function fakeSql(calls: Call[], label = 'outer'): postgres.Sql {
  const sql = {
    label,
    unsafe: (query: string, params?: unknown[], options?: { prepare?: boolean }) => calls.push({ query, params, options }),
    begin: async (fn: (inner: postgres.Sql) => unknown) => fn(fakeSql(calls, 'inner')),
    savepoint: async (name: string, fn: (inner: postgres.Sql) => unknown) => fn(fakeSql(calls, `savepoint ${name}`)),
  };
  return sql as unknown as postgres.Sql;
}

test('texts with parameters are named, up to the limit; the rest and parameterless ones go as asked', () => {
  const calls: Call[] = [];
  const sql = preparing(fakeSql(calls), preparePolicy(true, 2));
  sql.unsafe('select $1', [1], { prepare: false } as never);
  sql.unsafe('select 1', [], { prepare: false } as never);
  sql.unsafe('select $1 + 1', [1], { prepare: false } as never);
  sql.unsafe('select $1 + 2', [1], { prepare: false } as never); // a third text: over the limit of 2
  sql.unsafe('select $1', [2], { prepare: false } as never); // the first again: still named
  assert.equal(calls.map((c) => c.options?.prepare), [true, false, true, false, true]);
  assert.equal(calls[0]!.params, [1], 'the parameters go through unchanged');
});

test('off: every statement goes as Drizzle asked', () => {
  const calls: Call[] = [];
  const sql = preparing(fakeSql(calls), preparePolicy(false));
  sql.unsafe('select $1', [1], { prepare: false } as never);
  assert.equal(calls[0]!.options?.prepare, false);
});

test('a transaction and a savepoint hand their callback a client that names statements too', async () => {
  const calls: Call[] = [];
  const sql = preparing(fakeSql(calls), preparePolicy(true));
  await sql.begin(async (tx) => {
    assert.is((tx as unknown as { label: string }).label, 'inner');
    tx.unsafe('select $1 in tx', [1], { prepare: false } as never);
    await (tx as unknown as postgres.TransactionSql).savepoint('sp', async (sp) => {
      sp.unsafe('select $1 in savepoint', [1], { prepare: false } as never);
    });
  });
  assert.equal(calls.map((c) => [c.query, c.options?.prepare]), [['select $1 in tx', true], ['select $1 in savepoint', true]]);
});

const pgUrl = process.env.ANVIL_TEST_PG_URL ?? (process.env.DATABASE_URL || undefined);
test('on PostgreSQL a Drizzle query is a prepared statement of its connection', async () => {
  if (!pgUrl) return; // PGlite run: the engine has no network round trips to save
  const admin = maintenance(pgUrl);
  const name = `anvil_prepared_${process.pid}`;
  await admin.unsafe(`create database "${name}"`);
  const client = postgres(withDatabase(pgUrl, name), { max: 1, onnotice: () => {} });
  try {
    await client.unsafe('create table users (id bigint primary key)');
    const db = drizzle(preparing(client, preparePolicy(true)));
    await db.select({ id: users.id }).from(users).where(eq(users.id, 7));
    await db.transaction(async (tx) => { await tx.select({ id: users.id }).from(users).where(eq(users.id, 8)); });
    const prepared = await client.unsafe<{ statement: string }[]>('select statement from pg_prepared_statements');
    const selects = prepared.filter((p) => p.statement.includes('from "users" where "users"."id" = $1'));
    assert.is(selects.length, 1, `one named statement for the query, used in and out of the transaction: ${JSON.stringify(prepared)}`);
  } finally {
    await client.end();
    await admin.unsafe(`drop database if exists "${name}" with (force)`).finally(() => admin.end());
  }
});

test.run();
