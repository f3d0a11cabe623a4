import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { basic, startApp, type Client, type TestApp, type TestUser } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let asAdmin: string;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin);
});
test.after(async () => {
  await app.close();
});

const messageOf = (error: unknown) => (error as { message: string }).message;
const del = (client: Client, username: string, token: string | number) =>
  client.DELETE('/users/{username}/tokens/{token}', { params: { path: { username, token: String(token) } } });
const names = async (u: TestUser) => (await app.services.tokens.list(u.id, { limit: 50, offset: 0 })).rows.map((r) => r.name).sort();

async function mint(user: TestUser, name: string, scopes = ['all']) {
  const { row, token } = await app.services.tokens.create(user.id, name, scopes);
  return { id: row.id, name, auth: `token ${token}`, secret: token };
}

async function assertRevoked(secret: string) {
  for (const auth of [`token ${secret}`, `Bearer ${secret}`]) {
    const result = await app.client(auth).GET('/user');
    assert.is(result.response.status, 401, `${auth} no longer authenticates`);
    assert.is(messageOf(result.error), 'user does not exist or token is invalid');
  }
  const q = await fetch(`${app.url}/api/v1/user?token=${secret}`);
  assert.is(q.status, 401);
}

test('204: delete by id; the token stops working and leaves the list', async () => {
  const user = await app.user();
  const keep = await mint(user, 'keep');
  const gone = await mint(user, 'gone');
  assert.is((await app.client(gone.auth).GET('/user')).response.status, 200, 'works before');
  const result = await del(app.client(user.basic), user.username, gone.id);
  assert.is(result.response.status, 204);
  assertSpec('userDeleteAccessToken', result);
  assert.is(result.data, undefined);
  await assertRevoked(gone.secret);
  assert.equal(await names(user), ['keep']);
  assert.is((await app.client(keep.auth).GET('/user')).response.status, 200, 'the other token still works');
  const listed = await app.client(keep.auth).GET('/users/{username}/tokens', { params: { path: { username: user.username } } });
  assert.equal(listed.data!.map((t) => t.name), ['keep']);
});

test('204: delete by name', async () => {
  const user = await app.user();
  const t = await mint(user, 'ci-deploy');
  await mint(user, 'other');
  const result = await del(app.client(user.basic), user.username, 'ci-deploy');
  assert.is(result.response.status, 204);
  await assertRevoked(t.secret);
  assert.equal(await names(user), ['other']);
});

test('204: a name with spaces and slashes, sent encoded', async () => {
  const user = await app.user();
  const t = await mint(user, 'my laptop/work #2');
  const result = await del(app.client(user.basic), user.username, 'my laptop/work #2');
  assert.is(result.response.status, 204);
  await assertRevoked(t.secret);
});

test('204: a numeric-looking name that is no token\'s id deletes the token of that name', async () => {
  const user = await app.user();
  const t = await mint(user, '987654321');
  const result = await del(app.client(user.basic), user.username, '987654321');
  assert.is(result.response.status, 204);
  await assertRevoked(t.secret);
  assert.equal(await names(user), []);
});

test('204: when a name looks like the id of another token of the user, the id wins; then the name', async () => {
  const user = await app.user();
  const first = await mint(user, 'first');
  const named = await mint(user, String(first.id));
  const byId = await del(app.client(user.basic), user.username, first.id);
  assert.is(byId.response.status, 204);
  assert.equal(await names(user), [String(first.id)], 'the token with that id went');
  await assertRevoked(first.secret);
  const byName = await del(app.client(user.basic), user.username, first.id);
  assert.is(byName.response.status, 204, 'now only the name matches');
  await assertRevoked(named.secret);
});

test('204: a token with write:user may delete a token, even itself', async () => {
  const user = await app.user();
  const self = await mint(user, 'self', ['write:user']);
  const other = await mint(user, 'other');
  assert.is((await del(app.client(self.auth), user.username, other.id)).response.status, 204);
  await assertRevoked(other.secret);
  const suicide = await del(app.client(self.auth), user.username, 'self');
  assert.is(suicide.response.status, 204);
  await assertRevoked(self.secret);
});

test('204: a site admin deletes another user\'s token (Basic or token)', async () => {
  const user = await app.user({ visibility: 'private' });
  const a = await mint(user, 'a');
  const b = await mint(user, 'b');
  assert.is((await del(app.client(asAdmin), user.username, a.id)).response.status, 204);
  assert.is((await del(app.client(app.admin.basic), user.username, 'b')).response.status, 204);
  await assertRevoked(a.secret);
  await assertRevoked(b.secret);
});

test('401: anonymous callers and bad credentials; nothing is deleted', async () => {
  const user = await app.user();
  const t = await mint(user, 'stays');
  const anon = await del(app.client(), user.username, t.id);
  assert.is(anon.response.status, 401);
  assertSpec('userDeleteAccessToken', anon);
  assert.is(messageOf(anon.error), 'token is required');
  const wrong = await del(app.client(basic(user.username, 'wrong-password')), user.username, t.id);
  assert.is(wrong.response.status, 401);
  assert.equal(await names(user), ['stays']);
});

test('403: a plain user may not delete someone else\'s token', async () => {
  const owner = await app.user();
  const t = await mint(owner, 'theirs');
  const intruder = await app.user();
  const intruderToken = await app.token(intruder);
  for (const client of [app.client(intruder.basic), app.client(intruderToken)]) {
    const result = await del(client, owner.username, t.id);
    assert.is(result.response.status, 403);
    assertSpec('userDeleteAccessToken', result);
    assert.is(messageOf(result.error), 'doer should be the site admin or the user itself');
  }
  assert.is((await app.client(t.auth).GET('/user')).response.status, 200, 'the token still works');
});

test('403: a token with only read:user (DELETE needs write:user)', async () => {
  const user = await app.user();
  const reader = await mint(user, 'reader', ['read:user']);
  const target = await mint(user, 'target');
  const result = await del(app.client(reader.auth), user.username, target.id);
  assert.is(result.response.status, 403);
  assertSpec('userDeleteAccessToken', result);
  assert.is(messageOf(result.error), 'token does not have at least one of required scope(s): [write:user]');
  assert.equal(await names(user), ['reader', 'target']);
});

test('404: an unknown id or name, another user\'s token id, an unknown user (empty bodies)', async () => {
  const user = await app.user();
  await mint(user, 'mine');
  const stranger = await app.user();
  const theirs = await mint(stranger, 'theirs');
  const cases: Array<[string, string | number]> = [
    [user.username, 99_999_999],
    [user.username, 'no-such-token'],
    [user.username, 0],
    [user.username, theirs.id], // an id is looked up among the user's own tokens only
    [user.username, 'theirs'],
    ['no-such-user', 1],
  ];
  for (const [username, token] of cases) {
    const result = await del(app.client(user.basic), username, token);
    assert.is(result.response.status, 404, `${username}/${token}`);
    assertSpec('userDeleteAccessToken', result);
    assert.is(result.response.headers.get('content-length'), '0');
  }
  assert.equal(await names(user), ['mine']);
  assert.equal(await names(stranger), ['theirs']);
  assert.is((await app.client(theirs.auth).GET('/user')).response.status, 200);
});

test('404: deleting the same token twice', async () => {
  const user = await app.user();
  const t = await mint(user, 'once');
  assert.is((await del(app.client(user.basic), user.username, t.id)).response.status, 204);
  assert.is((await del(app.client(user.basic), user.username, t.id)).response.status, 404);
  assert.is((await del(app.client(user.basic), user.username, 'once')).response.status, 404);
});

test('404: a private user\'s tokens, for someone who may not see that user', async () => {
  const hidden = await app.user({ visibility: 'private' });
  const t = await mint(hidden, 'hidden');
  const other = await app.user();
  const result = await del(app.client(other.basic), hidden.username, t.id);
  assert.is(result.response.status, 404, 'not 403: the user is invisible');
  assert.equal(await names(hidden), ['hidden']);
});

// Tokens are answered from an in-process cache that every write to users or access_tokens, by this process
// or another one on the same database, invalidates before the next request is served (src/db/changes.ts).
test('a user blocked or a token deleted in this process is refused at once, though the token was just used', async () => {
  const user = await app.user();
  const t = await mint(user, 'cached');
  assert.is((await app.client(t.auth).GET('/user')).response.status, 200);
  const admin = app.client(asAdmin);
  const edit = await admin.PATCH('/admin/users/{username}', { params: { path: { username: user.username } }, body: { login_name: user.username, source_id: 0, prohibit_login: true } });
  assert.is(edit.response.status, 200);
  assert.is((await app.client(t.auth).GET('/user')).response.status, 403, 'the block is seen by the next request');
  await admin.PATCH('/admin/users/{username}', { params: { path: { username: user.username } }, body: { login_name: user.username, source_id: 0, prohibit_login: false } });
  assert.is((await app.client(t.auth).GET('/user')).response.status, 200);
});

if (process.env.ANVIL_TEST_PG_URL) {
  test('a token deleted by another connection to the same database is refused on the very next request', async () => {
    const user = await app.user();
    const t = await mint(user, 'elsewhere');
    for (let i = 0; i < 3; i++) assert.is((await app.client(t.auth).GET('/user')).response.status, 200, 'cached');
    // Written past this process's query layer: only the database's notification tells the cache.
    await app.sqlFromElsewhere(`delete from access_tokens where id = ${t.id}`);
    assert.is((await app.client(t.auth).GET('/user')).response.status, 401);
  });

  test('a user deactivated by another connection is refused on the very next request, and let in again', async () => {
    const user = await app.user();
    const t = await mint(user, 'deactivated');
    assert.is((await app.client(t.auth).GET('/user')).response.status, 200);
    await app.sqlFromElsewhere(`update users set is_active = false where lower_name = '${user.username.toLowerCase()}'`);
    assert.is((await app.client(t.auth).GET('/user')).response.status, 403);
    await app.sqlFromElsewhere(`update users set is_active = true where lower_name = '${user.username.toLowerCase()}'`);
    assert.is((await app.client(t.auth).GET('/user')).response.status, 200);
  });
} else {
  console.log('writes from another connection: PostgreSQL only (a PGlite data folder has one process, one connection)');
}

test.run();
