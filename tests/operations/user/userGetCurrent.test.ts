import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { basic, startApp, type TestApp, type TestUser } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let me: TestUser;
test.before(async () => {
  app = await startApp();
  me = await app.user();
});
test.after(async () => {
  await app.close();
});

const messageOf = (error: unknown) => (error as { message: string }).message;
const token = (header: string) => header.slice('token '.length);

test('200: Basic with the username shows the caller, e-mail included', async () => {
  const result = await app.client(me.basic).GET('/user');
  assert.is(result.response.status, 200);
  assertSpec('userGetCurrent', result);
  const u = result.data!;
  assert.is(u.id, me.id);
  assert.is(u.login, me.username);
  assert.is(u.username, me.username);
  assert.is(u.email, me.email, 'the real address, not the placeholder');
  assert.is(u.is_admin, false);
  assert.is(u.active, true);
  assert.is(u.prohibit_login, false);
  assert.is(u.restricted, false);
  assert.is(u.visibility, 'public');
  assert.is(u.type, 'User');
  assert.is(u.source_id, 0);
  assert.is(u.html_url, `${app.config.rootUrl}${me.username}`);
  assert.is(u.avatar_url, `${app.config.rootUrl}avatars/${me.id}`);
});

test('200: Basic with the e-mail address (any case) is the same user', async () => {
  const result = await app.client(basic(me.email.toUpperCase(), me.password)).GET('/user');
  assert.is(result.response.status, 200);
  assert.is(result.data!.id, me.id);
  assert.is(result.data!.email, me.email);
});

test('200: the site admin sees is_admin true', async () => {
  const result = await app.client(app.admin.basic).GET('/user');
  assert.is(result.response.status, 200);
  assertSpec('userGetCurrent', result);
  assert.is(result.data!.login, app.admin.username);
  assert.is(result.data!.email, app.admin.email);
  assert.is(result.data!.is_admin, true);
});

test('200: tokens with read:user, write:user or all; as `token`, `Bearer` and Basic password', async () => {
  for (const scopes of [['read:user'], ['write:user'], ['all'], ['read:issue', 'read:user']]) {
    const t = await app.token(me, scopes);
    const result = await app.client(t).GET('/user');
    assert.is(result.response.status, 200, scopes.join());
    assert.is(result.data!.login, me.username);
    assert.is(result.data!.email, me.email);
  }
  const t = token(await app.token(me, ['read:user']));
  for (const auth of [`Bearer ${t}`, `bearer ${t}`, `token ${t.toUpperCase()}`, basic(me.username, t), basic(me.email, t)]) {
    const result = await app.client(auth).GET('/user');
    assert.is(result.response.status, 200, auth);
    assert.is(result.data!.id, me.id);
  }
});

test('200: a restricted, private user sees themselves as such', async () => {
  const hidden = await app.user({ restricted: true, visibility: 'private' });
  const result = await app.client(hidden.basic).GET('/user');
  assert.is(result.response.status, 200);
  assert.is(result.data!.restricted, true);
  assert.is(result.data!.visibility, 'private');
  assert.is(result.data!.email, hidden.email);
});

test('401: anonymous callers', async () => {
  const result = await app.client().GET('/user');
  assert.is(result.response.status, 401);
  assertSpec('userGetCurrent', result);
  assert.equal(result.error, { message: 'token is required', url: `${app.config.rootUrl}api/swagger` });
});

test('401: a wrong password, an unknown user, an unknown token', async () => {
  const wrong = await app.client(basic(me.username, 'wrong-password')).GET('/user');
  assert.is(wrong.response.status, 401);
  assertSpec('userGetCurrent', wrong);
  assert.is(messageOf(wrong.error), 'user does not exist or password is incorrect');

  const nobody = await app.client(basic('nobody-at-all', me.password)).GET('/user');
  assert.is(nobody.response.status, 401);
  assert.is(messageOf(nobody.error), 'user does not exist or password is incorrect');

  for (const auth of [`token ${'a'.repeat(40)}`, 'token not-a-token', 'Bearer ', basic(me.username, 'b'.repeat(40))]) {
    const result = await app.client(auth).GET('/user');
    assert.is(result.response.status, 401, auth);
    assertSpec('userGetCurrent', result);
  }
});

test('403: a token without a user scope', async () => {
  for (const scopes of [['read:issue'], ['write:repository', 'read:admin']]) {
    const t = await app.token(me, scopes);
    const result = await app.client(t).GET('/user');
    assert.is(result.response.status, 403, scopes.join());
    assertSpec('userGetCurrent', result);
    assert.is(messageOf(result.error), 'token does not have at least one of required scope(s): [read:user]');
  }
});

test('404: an admin sudo to a user who does not exist', async () => {
  const result = await app.client(app.admin.basic).GET('/user', { headers: { Sudo: 'no-such-user' } });
  assert.is(result.response.status, 404);
  assertSpec('userGetCurrent', result);
});

test('200: an admin sudo shows the named user, with their e-mail', async () => {
  const result = await app.client(app.admin.basic).GET('/user', { headers: { Sudo: me.username.toUpperCase() } });
  assert.is(result.response.status, 200);
  assert.is(result.data!.id, me.id);
  assert.is(result.data!.email, me.email);
  assert.is(result.data!.is_admin, false);
});

test.run();
