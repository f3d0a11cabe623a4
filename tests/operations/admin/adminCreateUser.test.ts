import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { basic, startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type CreateUserOption = components['schemas']['CreateUserOption'];

let app: TestApp;
/** The admin's all-scope token: signing in with a password costs a password hash, a token does not. */
let asAdmin: string;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['all']);
});
test.after(async () => {
  await app.close();
});

const fresh = (prefix = 'n') => `${prefix}${randomBytes(4).toString('hex')}`;
const option = (over: Partial<CreateUserOption> = {}): CreateUserOption => {
  const username = over.username ?? fresh();
  return { username, email: `${fresh('e')}@example.org`, password: 'correct-horse', ...over };
};
const messageOf = (error: unknown) => (error as { message: string }).message;
const swagger = () => `${app.config.rootUrl}api/swagger`;

/** A request the typed client would refuse to send (wrong types, missing fields, broken JSON). */
async function rawPost(body: string, authorization?: string, target: TestApp = app) {
  const response = await fetch(`${target.url}/api/v1/admin/users`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
    body,
  });
  const text = await response.text();
  return { response, body: text ? JSON.parse(text) : undefined };
}

async function expect422(over: Partial<CreateUserOption>, pattern: RegExp) {
  const opt = option(over);
  const before = await app.services.users.countIndividuals();
  const result = await app.client(asAdmin).POST('/admin/users', { body: opt });
  const label = JSON.stringify(over);
  assert.is(result.response.status, 422, `${label} → ${result.response.status}`);
  assertSpec('adminCreateUser', result);
  assert.match(messageOf(result.error), pattern, `${label}: ${messageOf(result.error)}`);
  assert.is((result.error as { url: string }).url, swagger());
  assert.is(await app.services.users.countIndividuals(), before, `${label}: nothing was created`);
}

test('201: a site admin creates a user and gets the full User back', async () => {
  const opt = option({ full_name: 'Ada Lovelace', login_name: 'ada-ext' });
  const before = Math.floor(Date.now() / 1000) * 1000;
  const result = await app.client(app.admin.basic).POST('/admin/users', { body: opt });
  const after = Date.now();
  assert.is(result.response.status, 201);
  assertSpec('adminCreateUser', result);
  const u = result.data!;
  assert.ok(Number.isInteger(u.id) && u.id > 0);
  assert.equal(
    { ...u, id: 0, created: '' },
    {
      id: 0,
      login: opt.username,
      username: opt.username,
      login_name: 'ada-ext',
      source_id: 0,
      full_name: 'Ada Lovelace',
      email: opt.email,
      avatar_url: `${app.config.rootUrl}avatars/${u.id}`,
      html_url: `${app.config.rootUrl}${opt.username}`,
      language: '',
      is_admin: false,
      last_login: '1970-01-01T00:00:00Z',
      created: '',
      restricted: false,
      active: true,
      prohibit_login: false,
      location: '',
      website: '',
      description: '',
      visibility: 'public',
      type: 'User',
      followers_count: 0,
      following_count: 0,
      starred_repos_count: 0,
    },
  );
  const created = Date.parse(u.created);
  assert.ok(created >= before && created <= after, `created ${u.created} is now`);
});

test('201: must_change_password defaults to true and is stored; an explicit false is kept', async () => {
  const dflt = option();
  assert.is((await app.client(asAdmin).POST('/admin/users', { body: dflt })).response.status, 201);
  assert.is((await app.services.users.byName(dflt.username))!.mustChangePassword, true);

  const off = option({ must_change_password: false });
  assert.is((await app.client(asAdmin).POST('/admin/users', { body: off })).response.status, 201);
  assert.is((await app.services.users.byName(off.username))!.mustChangePassword, false);
});

test('201: the created user is active, has an activated primary e-mail and can sign in with Basic', async () => {
  const opt = option();
  const created = await app.client(asAdmin).POST('/admin/users', { body: opt });
  assert.is(created.response.status, 201);

  const byName = await app.client(basic(opt.username, opt.password!)).GET('/user');
  assert.is(byName.response.status, 200);
  assert.is(byName.data!.id, created.data!.id);
  assert.is(byName.data!.email, opt.email);
  assert.is(byName.data!.active, true);

  const byEmail = await app.client(basic(opt.email.toUpperCase(), opt.password!)).GET('/user');
  assert.is(byEmail.response.status, 200, 'sign-in with the e-mail address works: it is activated');
  assert.is(byEmail.data!.login, opt.username);

  const wrong = await app.client(basic(opt.username, 'not-the-password')).GET('/user');
  assert.is(wrong.response.status, 401);
});

test('201: read-after-write — GET /users/{username} returns exactly what the POST answered', async () => {
  const opt = option({ full_name: 'Read After Write', restricted: true, visibility: 'limited' });
  const created = await app.client(asAdmin).POST('/admin/users', { body: opt });
  assert.is(created.response.status, 201);
  const read = await app.client(asAdmin).GET('/users/{username}', { params: { path: { username: opt.username } } });
  assert.is(read.response.status, 200);
  assert.equal(read.data, created.data);
});

test('201: created_at backdates `created`, in the answer and later', async () => {
  const opt = option({ created_at: '2019-03-04T05:06:07Z' });
  const result = await app.client(asAdmin).POST('/admin/users', { body: opt });
  assert.is(result.response.status, 201);
  assert.is(result.data!.created, '2019-03-04T05:06:07Z');
  const read = await app.client(asAdmin).GET('/users/{username}', { params: { path: { username: opt.username } } });
  assert.is(read.data!.created, '2019-03-04T05:06:07Z');
  const row = await app.services.users.byName(opt.username);
  assert.is(row!.updatedAt.toISOString(), '2019-03-04T05:06:07.000Z', 'updated is backdated too');

  const offset = option({ created_at: '2021-06-01T12:00:00+02:00' });
  const withOffset = await app.client(asAdmin).POST('/admin/users', { body: offset });
  assert.is(withOffset.data!.created, '2021-06-01T10:00:00Z', 'an offset is normalised to UTC');
});

test('201: visibility defaults to public; a given visibility is kept; "" means public', async () => {
  for (const [given, expected] of [[undefined, 'public'], ['', 'public'], ['public', 'public'], ['limited', 'limited'], ['private', 'private']] as const) {
    const opt = option(given === undefined ? {} : { visibility: given });
    const result = await app.client(asAdmin).POST('/admin/users', { body: opt });
    assert.is(result.response.status, 201, String(given));
    assert.is(result.data!.visibility, expected, String(given));
    assert.is((await app.services.users.byName(opt.username))!.visibility, expected);
  }
});

test('201: restricted is kept, a private user is hidden from anonymous callers', async () => {
  const opt = option({ restricted: true, visibility: 'private' });
  const result = await app.client(asAdmin).POST('/admin/users', { body: opt });
  assert.is(result.response.status, 201);
  assert.is(result.data!.restricted, true);
  assert.is((await app.services.users.byName(opt.username))!.isRestricted, true);
  const anon = await app.client().GET('/users/{username}', { params: { path: { username: opt.username } } });
  assert.is(anon.response.status, 404);
});

test('201: source_id 0 is the local source; send_notify is accepted', async () => {
  const result = await app.client(asAdmin).POST('/admin/users', { body: option({ source_id: 0, send_notify: true }) });
  assert.is(result.response.status, 201);
  assert.is(result.data!.source_id, 0);
});

test('201: a 40-character name and an 8-character password are the limits that still pass', async () => {
  const username = `a${randomBytes(20).toString('hex')}`.slice(0, 40);
  assert.is(username.length, 40);
  const result = await app.client(asAdmin).POST('/admin/users', { body: option({ username, password: '12345678' }) });
  assert.is(result.response.status, 201);
  assert.is(result.data!.login, username);
  assert.is((await app.client(basic(username, '12345678')).GET('/user')).response.status, 200);
});

test('201: names with dots, dashes and underscores in the middle are allowed', async () => {
  for (const username of [`a.b-c_d${fresh('')}`, `1st${fresh('.')}`, `X${fresh('_')}`]) {
    const result = await app.client(asAdmin).POST('/admin/users', { body: option({ username }) });
    assert.is(result.response.status, 201, username);
    assert.is(result.data!.login, username);
  }
});

test('201: an admin token with write:admin (or all) may create users', async () => {
  for (const scopes of [['write:admin'], ['all'], ['read:user', 'write:admin']]) {
    const token = await app.token(app.admin, scopes);
    const opt = option();
    const result = await app.client(token).POST('/admin/users', { body: opt });
    assert.is(result.response.status, 201, scopes.join());
    assertSpec('adminCreateUser', result);
    assert.is(result.data!.login, opt.username);
    assert.is(result.data!.email, opt.email, 'the admin caller sees the e-mail');
  }
});

test('201: an admin may use Basic with a token as the password', async () => {
  const token = (await app.token(app.admin, ['write:admin'])).slice('token '.length);
  const result = await app.client(basic(app.admin.username, token)).POST('/admin/users', { body: option() });
  assert.is(result.response.status, 201);
});

test('401: anonymous callers', async () => {
  const opt = option();
  const result = await app.client().POST('/admin/users', { body: opt });
  assert.is(result.response.status, 401);
  assertSpec('adminCreateUser', result);
  assert.equal(result.error, { message: 'token is required', url: swagger() });
  assert.is(await app.services.users.byName(opt.username), undefined);
});

test('401: wrong password, unknown user, unknown token', async () => {
  for (const auth of [basic(app.admin.username, 'wrong-password'), basic('nobody-here', 'whatever1'), `token ${'0'.repeat(40)}`]) {
    const result = await app.client(auth).POST('/admin/users', { body: option() });
    assert.is(result.response.status, 401, auth);
    assertSpec('adminCreateUser', result);
  }
});

test('403: a signed-in user who is not a site admin', async () => {
  const plain = await app.user();
  const opt = option();
  const result = await app.client(plain.basic).POST('/admin/users', { body: opt });
  assert.is(result.response.status, 403);
  assertSpec('adminCreateUser', result);
  assert.equal(result.error, { message: 'user should be the site admin', url: swagger() });
  assert.is(await app.services.users.byName(opt.username), undefined);

  const allToken = await app.token(plain, ['all']);
  const withToken = await app.client(allToken).POST('/admin/users', { body: option() });
  assert.is(withToken.response.status, 403, 'an all-scope token does not make a plain user an admin');
  assert.is(messageOf(withToken.error), 'user should be the site admin');

  const writeAdmin = await app.token(plain, ['write:admin']);
  const scoped = await app.client(writeAdmin).POST('/admin/users', { body: option() });
  assert.is(scoped.response.status, 403);
  assert.is(messageOf(scoped.error), 'user should be the site admin');
});

test('403: an admin token without write:admin (read:admin on a POST, or another category)', async () => {
  for (const scopes of [['read:admin'], ['write:user'], ['read:issue', 'write:repository']]) {
    const token = await app.token(app.admin, scopes);
    const opt = option();
    const result = await app.client(token).POST('/admin/users', { body: opt });
    assert.is(result.response.status, 403, scopes.join());
    assertSpec('adminCreateUser', result);
    assert.is(messageOf(result.error), 'token does not have at least one of required scope(s): [write:admin]');
    assert.is(await app.services.users.byName(opt.username), undefined);
  }
});

test('403: an admin acting as a plain user through Sudo is no longer an admin', async () => {
  const plain = await app.user();
  const result = await app.client(asAdmin).POST('/admin/users', { body: option(), headers: { Sudo: plain.username } });
  assert.is(result.response.status, 403);
  assert.is(messageOf(result.error), 'user should be the site admin');
});

test('404: Sudo to a user who does not exist (empty body)', async () => {
  const result = await app.client(asAdmin).POST('/admin/users', { body: option(), headers: { Sudo: 'no-such-user' } });
  assert.is(result.response.status, 404);
  assertSpec('adminCreateUser', result);
  assert.is(result.response.headers.get('content-length'), '0');
});

test('422: reserved names and name patterns, case-insensitively', async () => {
  for (const username of ['api', 'ghost', 'GHOST', 'Api', 'admin', 'user', 'explore', 'gitea-actions', 'assets']) {
    await expect422({ username }, /reserved/);
  }
  for (const username of ['foo.keys', 'foo.gpg', 'Foo.RSS', 'foo.atom', 'foo.png']) {
    await expect422({ username }, /pattern is not allowed/);
  }
});

test('422: name patterns that are not allowed name the field', async () => {
  for (const username of ['-abc', '.abc', '_abc', 'a..b', 'a-_b', 'a__b', 'abc-', 'abc.', 'abc_', 'a b', 'a/b', 'ä', 'a@b']) {
    await expect422({ username }, /\[username\]/);
  }
});

test('422: a name over 40 characters', async () => {
  await expect422({ username: 'a'.repeat(41) }, /\[username\]: must NOT have more than 40 characters/);
});

test('422: a taken name, case-insensitively; the message says "already exists"', async () => {
  const first = option({ username: fresh('Dup') });
  assert.is((await app.client(asAdmin).POST('/admin/users', { body: first })).response.status, 201);
  await expect422({ username: first.username.toLowerCase() }, /already exists/);
  await expect422({ username: first.username.toUpperCase() }, /already exists/);
  await expect422({ username: app.admin.username.toUpperCase() }, /already exists/);
});

test('422: an e-mail address in use, case-insensitively; the message says "e-mail already in use"', async () => {
  const first = option();
  assert.is((await app.client(asAdmin).POST('/admin/users', { body: first })).response.status, 201);
  await expect422({ email: first.email.toUpperCase() }, /e-mail already in use/);
  await expect422({ email: app.admin.email }, /e-mail already in use/);
  await expect422({ email: app.admin.email.toUpperCase() }, /e-mail already in use/);
});

test('422: invalid e-mail addresses', async () => {
  for (const email of ['not-an-email', 'a@b.com\r\n', 'a@b.com\n', 'a b@example.com', 'a@', '@example.com', 'a@@example.com', '']) {
    await expect422({ email }, /email/);
  }
  await expect422({ email: `${'a'.repeat(250)}@example.com` }, /email/);
});

test('422: source_id other than 0 (anvil has no external sources)', async () => {
  for (const source_id of [1, 42]) await expect422({ source_id }, /login source does not exist/);
});

test('422: an unknown visibility and an over-long full name', async () => {
  const bad = await rawPost(JSON.stringify({ ...option(), visibility: 'secret' }), asAdmin);
  assert.is(bad.response.status, 422);
  assertSpecAnswer('adminCreateUser', 422, bad.body);
  assert.match(bad.body.message, /\[visibility\]/);
  await expect422({ full_name: 'x'.repeat(101) }, /\[full_name\]/);
});

test('422: missing username or email names the field', async () => {
  const { username: _u, ...noName } = option();
  const a = await rawPost(JSON.stringify(noName), asAdmin);
  assert.is(a.response.status, 422);
  assertSpecAnswer('adminCreateUser', 422, a.body);
  assert.equal(a.body, { message: '[username]: Required', url: swagger() });

  const { email: _e, ...noEmail } = option();
  const b = await rawPost(JSON.stringify(noEmail), asAdmin);
  assert.is(b.response.status, 422);
  assert.equal(b.body, { message: '[email]: Required', url: swagger() });

  const none = await rawPost('', asAdmin);
  assert.is(none.response.status, 422, 'no body at all');
  assertSpecAnswer('adminCreateUser', 422, none.body);
});

test('422: fields of the wrong type name the field', async () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ username: 123 }, /\[username\]/],
    [{ email: ['a@b.c'] }, /\[email\]/],
    [{ must_change_password: 'yes' }, /\[must_change_password\]/],
    [{ source_id: 'one' }, /\[source_id\]/],
    [{ created_at: 'yesterday' }, /\[created_at\]/],
  ];
  for (const [over, pattern] of cases) {
    const res = await rawPost(JSON.stringify({ ...option(), ...over }), asAdmin);
    assert.is(res.response.status, 422, JSON.stringify(over));
    assert.match(res.body.message, pattern);
  }
  for (const body of ['null', '[]', '"user"', '42']) {
    const res = await rawPost(body, asAdmin);
    assert.is(res.response.status, 422, body);
    assertSpecAnswer('adminCreateUser', 422, res.body);
  }
});

test('400: a password shorter than 8 characters, empty or missing', async () => {
  const cases: Array<[string, Partial<CreateUserOption>]> = [
    ['short', { password: '1234567' }],
    ['empty', { password: '' }],
  ];
  const { password: _p, ...noPassword } = option();
  for (const [label, over] of cases) {
    const opt = option(over);
    const result = await app.client(asAdmin).POST('/admin/users', { body: opt });
    assert.is(result.response.status, 400, label);
    assertSpec('adminCreateUser', result);
    assert.match(messageOf(result.error), /password/, label);
    assert.is(await app.services.users.byName(opt.username), undefined, label);
  }
  const missing = await app.client(asAdmin).POST('/admin/users', { body: noPassword });
  assert.is(missing.response.status, 400, 'missing');
  assert.match(messageOf(missing.error), /password/);
  assert.is(await app.services.users.byName(noPassword.username), undefined);
});

test('400: a malformed JSON body', async () => {
  for (const body of ['{"username": "x", ', '{username: x}', "{'a':1}"]) {
    const res = await rawPost(body, asAdmin);
    assert.is(res.response.status, 400, body);
    assertSpecAnswer('adminCreateUser', 400, res.body);
    assert.match(res.body.message, /invalid JSON body/);
    assert.is(res.body.url, swagger());
  }
});

test('400 is answered only after authentication: anonymous malformed JSON is 401', async () => {
  const res = await rawPost('{"username":', undefined);
  assert.is(res.response.status, 401);
});

test('413: a body over the limit, with or without Content-Length', async () => {
  const small = await startApp({ MAX_BODY_SIZE: '2048' });
  try {
    const big = JSON.stringify({ ...option(), full_name: 'x'.repeat(4000) });
    const declared = await rawPost(big, small.admin.basic, small);
    assert.is(declared.response.status, 413);
    assertSpecAnswer('adminCreateUser', 413, declared.body);
    assert.equal(declared.body, { message: 'request body is larger than 2048 bytes', url: `${small.config.rootUrl}api/swagger` });

    // Chunked: the limit is found while reading; the answer must still arrive.
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 1000) c.enqueue(bytes.slice(i, i + 1000));
        c.close();
      },
    });
    const chunked = await fetch(`${small.url}/api/v1/admin/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: small.admin.basic },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.is(chunked.status, 413);
    assert.match((await chunked.json()).message, /larger than 2048 bytes/);

    // The same server still serves bodies under the limit.
    const ok = await small.client(small.admin.basic).POST('/admin/users', { body: option() });
    assert.is(ok.response.status, 201);
  } finally {
    await small.close();
  }
});

test.run();
