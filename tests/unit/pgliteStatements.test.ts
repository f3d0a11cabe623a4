// The PGlite client that keeps named prepared statements: the same results as PGlite's own query for
// every kind of value, each data statement prepared once, errors that leave nothing behind, the
// transaction's view, a table altered under a prepared statement, and what it leaves to PGlite.
import { PGlite } from '@electric-sql/pglite';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PgliteStatementCache } from '../../src/db/pgliteStatements.js';

let pg: PGlite;
let client: PGlite;

const prepared = async () =>
  (await pg.query<{ name: string; statement: string }>('select name, statement from pg_prepared_statements order by name')).rows;

test.before(async () => {
  pg = await PGlite.create();
  client = new PgliteStatementCache(pg) as unknown as PGlite;
  await pg.exec(`create table t (id bigint primary key, name text not null unique, flag boolean, doc jsonb, at timestamptz, tags text[])`);
});
test.after(async () => {
  await pg.close();
});

test('the same rows as PGlite\'s own query, for text, numbers, booleans, json, dates, arrays and nulls', async () => {
  const at = new Date('2026-11-26T07:00:00.123Z');
  const insert = 'insert into t (id, name, flag, doc, at, tags) values ($1, $2, $3, $4, $5, $6) returning *';
  const mine = await client.query(insert, [1, 'één', true, JSON.stringify({ a: [1, 'x'] }), at, ['a', 'b,c']]);
  const theirs = await pg.query(insert, [2, 'two', null, null, null, null]);
  assert.equal(mine.rows, [{ id: 1, name: 'één', flag: true, doc: { a: [1, 'x'] }, at, tags: ['a', 'b,c'] }]);
  assert.equal(mine.fields, theirs.fields);
  const select = 'select * from t where id = any($1::bigint[]) order by id';
  assert.equal((await client.query(select, [[1, 2]])).rows, (await pg.query(select, [[1, 2]])).rows);
  const arrays = { rowMode: 'array' as const };
  assert.equal((await client.query(select, [[2]], arrays)).rows, (await pg.query(select, [[2]], arrays)).rows);
  const update = await client.query('update t set flag = $1 where id = $2', [false, 2]);
  assert.is(update.affectedRows, 1);
});

test('each data statement is prepared once, under its own name; DDL and transaction control are not', async () => {
  const before = (await prepared()).length;
  for (let i = 0; i < 5; i++) await client.query('select name from t where id = $1', [1]);
  const after = await prepared();
  assert.is(after.length, before + 1);
  assert.ok(after.some((s) => s.statement === 'select name from t where id = $1'));
  await client.query('create index t_flag on t (flag)');
  await client.query('analyze t');
  assert.is((await prepared()).length, before + 1);
});

test('errors: a constraint (with its code), a syntax error, a missing table; each leaves the next query working', async () => {
  const err = await client.query('insert into t (id, name) values ($1, $2)', [3, 'two']).then(() => undefined, (e: unknown) => e);
  assert.is((err as { code?: string }).code, '23505');
  assert.is((err as { query?: string }).query, 'insert into t (id, name) values ($1, $2)');
  await client.query('insert into t (id, name) values ($1, $2)', [3, 'three']); // the same statement, now fine
  const syntax = await client.query('select from where', []).then(() => undefined, (e: unknown) => e);
  assert.ok(syntax instanceof Error);
  const missing = await client.query('select * from nowhere', []).then(() => undefined, (e: unknown) => e);
  assert.ok(missing instanceof Error);
  await pg.exec('create table nowhere (x int)');
  assert.equal((await client.query('select * from nowhere', [])).rows, [], 'prepared once the table exists');
  assert.equal((await client.query('select name from t where id = $1', [3])).rows, [{ name: 'three' }]);
});

test('transactions: cached statements see the transaction\'s own rows; rollback and commit as PGlite\'s', async () => {
  const count = async (q: Pick<PGlite, 'query'>) => Number((await q.query<{ n: number }>('select count(*)::int as n from t', [])).rows[0]!.n);
  const n = await count(client);
  await client.transaction(async (tx) => {
    await tx.query('insert into t (id, name) values ($1, $2)', [10, 'ten']);
    assert.is(await count(tx), n + 1);
    await tx.rollback();
  });
  assert.is(await count(client), n);
  const failed = await client.transaction(async (tx) => {
    await tx.query('insert into t (id, name) values ($1, $2)', [11, 'eleven']);
    await tx.query('insert into t (id, name) values ($1, $2)', [12, 'eleven']); // unique violation: all undone
  }).then(() => undefined, (e: unknown) => e);
  assert.is((failed as { code?: string }).code, '23505');
  assert.is(await count(client), n);
  await client.transaction(async (tx) => {
    await tx.query('insert into t (id, name) values ($1, $2)', [13, 'thirteen']);
  });
  assert.is(await count(pg), n + 1);
});

test('the least recently used statements are closed beyond 500, and prepared again when used again', async () => {
  await client.query('select 1 as kept where $1::int = 1', [1]);
  for (let i = 0; i < 520; i++) {
    await client.query(`select ${i} as n where $1::int = 1`, [1]);
    if (i % 100 === 0) await client.query('select 1 as kept where $1::int = 1', [1]); // kept in use
  }
  await client.query('select 1 as kept where $1::int = 1', [1]);
  const names = await prepared();
  assert.ok(names.length <= 501, `${names.length} prepared`);
  assert.ok(names.some((s) => s.statement.startsWith('select 1 as kept')), 'the one in use stays');
  assert.ok(!names.some((s) => s.statement === 'select 0 as n where $1::int = 1'), 'the oldest went');
  assert.equal((await client.query('select 0 as n where $1::int = 1', [1])).rows, [{ n: 0 }], 'and comes back');
});

test('a table altered under a prepared statement: PostgreSQL plans it again', async () => {
  const q = 'select id, name from t where id = $1';
  assert.equal((await client.query(q, [1])).rows, [{ id: 1, name: 'één' }]);
  await pg.exec('alter table t add column extra text; drop index t_flag');
  assert.equal((await client.query(q, [1])).rows, [{ id: 1, name: 'één' }]);
});

test.run();
