// The change feed that keeps in-process caches honest across processes (src/db/changes.ts, #31): on
// PostgreSQL a write committed on another connection is counted before the very next `version()`
// answers, however soon it is asked; writes that grant nothing, and writes rolled back, are not counted;
// a lost listening connection counts as a change.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { changesOf, type ChangeFeed } from '../../src/db/changes.js';
import { startApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { eventually } from '../helpers/hooks.js';

const onPostgres = !!process.env.ANVIL_TEST_PG_URL;
let app: TestApp;
let feed: ChangeFeed;
let user: TestUser;

test.before(async () => {
  app = await startApp();
  feed = changesOf(app.services.deps.db);
  user = await app.user();
  await app.token(user);
});
test.after(async () => {
  await app?.close();
});

const tables = ['users', 'access_tokens'] as const;

if (onPostgres) {
  test('a write committed on another connection is counted by the very next version(), every time', async () => {
    for (let i = 0; i < 60; i++) {
      const before = await feed.version(tables);
      const table = i % 2 ? 'users' : 'access_tokens';
      const column = table === 'users' ? 'full_name' : 'name';
      await app.sqlFromElsewhere(`update ${table} set ${column} = ${column} || 'x' where ${table === 'users' ? 'id' : 'user_id'} = ${user.id}`);
      assert.is.not(await feed.version(tables), before, `write ${i} (${table}) not counted`);
    }
  });

  test('every write of users counts (GET /user answers with the cached row); token bookkeeping and rolled-back writes do not', async () => {
    let v = await feed.version(tables);
    for (const statement of [
      `update users set num_stars = num_stars + 1, num_followers = num_followers + 1 where id = ${user.id}`,
      `update users set last_login_at = now(), updated_at = now() where id = ${user.id}`,
    ]) {
      await app.sqlFromElsewhere(statement);
      const next = await feed.version(tables);
      assert.is.not(next, v, `not counted: ${statement}`);
      v = next;
    }
    const quiet = [
      `update access_tokens set last_used_at = now() where user_id = ${user.id}`,
      `insert into access_tokens (user_id, name, token_hash, token_last_eight, scopes) values (${user.id}, 'new', md5(random()::text), 'abcdefgh', '{all}')`,
    ];
    for (const statement of quiet) {
      await app.sqlFromElsewhere(statement);
      assert.is(await feed.version(tables), v, `counted: ${statement}`);
    }
    // Made, then undone by the error that ends its transaction.
    const undone = await app.sqlFromElsewhere(`do $$ begin update users set is_admin = true where id = ${user.id}; raise exception 'undone'; end $$`)
      .then(() => 'committed', (err: Error) => err.message);
    assert.is(undone, 'undone');
    assert.is(await feed.version(tables), v, 'a rolled-back write counted');
    for (const statement of [
      `delete from access_tokens where user_id = ${user.id} and name = 'new'`,
      `update users set prohibit_login = true where id = ${user.id}`,
      `update users set prohibit_login = false where id = ${user.id}`,
      `update access_tokens set scopes = '{read:user}' where user_id = ${user.id}`,
    ]) {
      await app.sqlFromElsewhere(statement);
      const now = await feed.version(tables);
      assert.is.not(now, v, `not counted: ${statement}`);
      v = now;
    }
    const other = await app.user();
    assert.is.not(await feed.version(tables), v, 'a new user');
    v = await feed.version(tables);
    await app.sqlFromElsewhere(`delete from users where id = ${other.id}`);
    assert.is.not(await feed.version(tables), v, 'a deleted user');
  });

  test('a lost listening connection counts as a change, and listening resumes', async () => {
    const before = await feed.version(tables);
    await app.sqlFromElsewhere(`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query in ('select 1', 'listen anvil_changes')`);
    // The next answers may fail while the connection is found gone (the cache is then bypassed).
    const after = await eventually(() => feed.version(tables).catch(() => undefined), 'the feed answering again');
    assert.is.not(after, before);
    await app.sqlFromElsewhere(`update users set full_name = 'again' where id = ${user.id}`);
    assert.is.not(await feed.version(tables), after, 'listening again');
  });
} else {
  test('PGlite: the feed counts this process\'s own writes', async () => {
    const before = await feed.version(tables);
    const edit = await app.client(app.admin.basic).PATCH('/admin/users/{username}', {
      params: { path: { username: user.username } }, body: { login_name: user.username, source_id: 0, full_name: 'changed' },
    });
    assert.is(edit.response.status, 200);
    assert.is.not(await feed.version(tables), before);
  });
  console.log('change feed across connections: PostgreSQL only (a PGlite data folder has one process, one connection)');
}

test.run();
