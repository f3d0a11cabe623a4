import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { components } from '../../../generated/openapi.js';
import { basic, startApp, type TestApp, type TestUser } from '../../helpers/harness.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

type TokenScope = components['schemas']['TokenScope'];

let app: TestApp;
let me: TestUser;
test.before(async () => {
  app = await startApp();
  me = await app.user();
});
test.after(async () => {
  await app.close();
});

const name = () => `tok-${randomBytes(4).toString('hex')}`;
const messageOf = (error: unknown) => (error as { message: string }).message;
const create = (authorization: string | undefined, username: string, body: { name: string; scopes: TokenScope[] }) =>
  app.client(authorization).POST('/users/{username}/tokens', { params: { path: { username } }, body });
const tokenCount = async (u: TestUser) => (await app.services.tokens.list(u.id, { limit: 50, offset: 0 })).total;

async function rawCreate(username: string, body: string, authorization = me.basic) {
  const response = await fetch(`${app.url}/api/v1/users/${username}/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: authorization },
    body,
  });
  const text = await response.text();
  return { response, body: text ? JSON.parse(text) : undefined };
}

test('201: the token is shown once in sha1, 40 hex characters; token_last_eight are its last 8', async () => {
  const n = name();
  const before = Math.floor(Date.now() / 1000) * 1000;
  const result = await create(me.basic, me.username, { name: n, scopes: ['read:user', 'write:issue'] });
  assert.is(result.response.status, 201);
  assertSpec('userCreateToken', result);
  const t = result.data!;
  assert.match(t.sha1, /^[0-9a-f]{40}$/);
  assert.is(t.token_last_eight, t.sha1.slice(-8));
  assert.is(t.name, n);
  assert.equal(t.scopes, ['read:user', 'write:issue']);
  assert.ok(Number.isInteger(t.id) && t.id > 0);
  assert.is(t.last_used_at, null);
  const created = Date.parse(t.created_at);
  assert.ok(created >= before && created <= Date.now(), t.created_at);
  const stored = await app.services.tokens.list(me.id, { limit: 50, offset: 0 });
  assert.ok(stored.rows.some((r) => r.id === t.id && r.name === n));
});

test('201: the new token works right away: token, Bearer, Basic password, ?token= and ?access_token=', async () => {
  const { data } = await create(me.basic, me.username, { name: name(), scopes: ['read:user'] });
  const sha = data!.sha1;
  for (const auth of [`token ${sha}`, `Bearer ${sha}`, basic(me.username, sha), basic(me.email, sha)]) {
    const result = await app.client(auth).GET('/user');
    assert.is(result.response.status, 200, auth);
    assert.is(result.data!.id, me.id);
    assert.is(result.response.headers.get('warning'), null, `${auth}: no deprecation warning`);
  }
  for (const param of ['token', 'access_token']) {
    const response = await fetch(`${app.url}/api/v1/user?${param}=${sha}`);
    assert.is(response.status, 200, param);
    assert.is((await response.json()).id, me.id);
    assert.match(response.headers.get('warning') ?? '', /^299 .*deprecated/, `${param}: Warning header`);
  }
});

test('201: scopes limit what the token may do', async () => {
  const { data } = await create(me.basic, me.username, { name: name(), scopes: ['read:issue'] });
  const result = await app.client(`token ${data!.sha1}`).GET('/user');
  assert.is(result.response.status, 403);
  assert.match(messageOf(result.error), /read:user/);
});

test('201: repeated scopes are stored once; the same name is fine for another user', async () => {
  const n = name();
  const dup = await create(me.basic, me.username, { name: n, scopes: ['read:user', 'read:user', 'all'] });
  assert.is(dup.response.status, 201);
  assert.equal(dup.data!.scopes, ['read:user', 'all']);
  const other = await app.user();
  const same = await create(other.basic, other.username, { name: n, scopes: ['all'] });
  assert.is(same.response.status, 201);
  assert.is.not(same.data!.sha1, dup.data!.sha1);
});

test('201: a site admin may create a token for another user; it authenticates as that user', async () => {
  const owner = await app.user();
  const result = await create(app.admin.basic, owner.username, { name: name(), scopes: ['read:user'] });
  assert.is(result.response.status, 201);
  assertSpec('userCreateToken', result);
  const who = await app.client(`token ${result.data!.sha1}`).GET('/user');
  assert.is(who.data!.login, owner.username);
  assert.is(who.data!.is_admin, false);
  assert.is(await tokenCount(owner), 1);
});

test('201: the name is case-insensitive in the path; a private user may create their own tokens', async () => {
  const hidden = await app.user({ visibility: 'private' });
  const result = await create(hidden.basic, hidden.username.toUpperCase(), { name: name(), scopes: ['all'] });
  assert.is(result.response.status, 201);
  const who = await app.client(`token ${result.data!.sha1}`).GET('/user');
  assert.is(who.data!.id, hidden.id);
});

test('401: token authentication cannot mint tokens (Basic with a password only)', async () => {
  const t = await app.token(me, ['all']);
  const sha = t.slice('token '.length);
  const before = await tokenCount(me);
  for (const auth of [t, `Bearer ${sha}`, basic(me.username, sha)]) {
    const result = await create(auth, me.username, { name: name(), scopes: ['all'] });
    assert.is(result.response.status, 401, auth);
    assertSpec('userCreateToken', result);
    assert.is(messageOf(result.error), 'basic authentication with a password is required');
  }
  const q = await fetch(`${app.url}/api/v1/users/${me.username}/tokens?token=${sha}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: name(), scopes: ['all'] }),
  });
  assert.is(q.status, 401);
  assert.is(await tokenCount(me), before, 'no token was created');
});

test('401: anonymous callers and wrong passwords', async () => {
  const anon = await create(undefined, me.username, { name: name(), scopes: ['all'] });
  assert.is(anon.response.status, 401);
  assertSpec('userCreateToken', anon);
  assert.is(messageOf(anon.error), 'token is required');
  const wrong = await create(basic(me.username, 'wrong-password'), me.username, { name: name(), scopes: ['all'] });
  assert.is(wrong.response.status, 401);
  assert.is(messageOf(wrong.error), 'user does not exist or password is incorrect');
});

test('400: a name the user already has', async () => {
  const n = name();
  assert.is((await create(me.basic, me.username, { name: n, scopes: ['all'] })).response.status, 201);
  const before = await tokenCount(me);
  const again = await create(me.basic, me.username, { name: n, scopes: ['read:user'] });
  assert.is(again.response.status, 400);
  assertSpec('userCreateToken', again);
  assert.equal(again.error, { message: 'access token name has been used already', url: `${app.config.rootUrl}api/swagger` });
  assert.is(await tokenCount(me), before);
});

test('400: a malformed JSON body', async () => {
  const res = await rawCreate(me.username, '{"name": ');
  assert.is(res.response.status, 400);
  assertSpecAnswer('userCreateToken', 400, res.body);
  assert.match(res.body.message, /invalid JSON body/);
});

test('403: a plain user may not create tokens for someone else', async () => {
  const owner = await app.user();
  const result = await create(me.basic, owner.username, { name: name(), scopes: ['all'] });
  assert.is(result.response.status, 403);
  assertSpec('userCreateToken', result);
  assert.is(messageOf(result.error), 'doer should be the site admin or the user itself');
  assert.is(await tokenCount(owner), 0);
});

test('403: a non-admin sudo', async () => {
  const owner = await app.user();
  const result = await app.client(me.basic).POST('/users/{username}/tokens', {
    params: { path: { username: owner.username } },
    body: { name: name(), scopes: ['all'] },
    headers: { Sudo: owner.username },
  });
  assert.is(result.response.status, 403);
  assert.is(messageOf(result.error), 'Only administrators allowed to sudo.');
});

test('404: an unknown user, or a private user the caller may not see', async () => {
  const unknown = await create(me.basic, 'no-such-user', { name: name(), scopes: ['all'] });
  assert.is(unknown.response.status, 404);
  assertSpec('userCreateToken', unknown);
  const hidden = await app.user({ visibility: 'private' });
  const invisible = await create(me.basic, hidden.username, { name: name(), scopes: ['all'] });
  assert.is(invisible.response.status, 404, 'private users are 404, not 403');
  assert.is(await tokenCount(hidden), 0);
  const byAdmin = await create(app.admin.basic, 'no-such-user', { name: name(), scopes: ['all'] });
  assert.is(byAdmin.response.status, 404);
});

test('422: empty or unknown scopes, a missing or blank name', async () => {
  const before = await tokenCount(me);
  const cases: Array<[unknown, RegExp]> = [
    [{ name: name(), scopes: [] }, /\[scopes\]/],
    [{ name: name(), scopes: ['read:everything'] }, /\[scopes\.0\]/],
    [{ name: name(), scopes: ['all', 'write:nothing'] }, /\[scopes\.1\]/],
    [{ name: name() }, /\[scopes\]: Required/],
    [{ name: name(), scopes: 'all' }, /\[scopes\]/],
    [{ scopes: ['all'] }, /\[name\]: Required/],
    [{ name: '', scopes: ['all'] }, /\[name\]/],
    [{ name: '   ', scopes: ['all'] }, /\[name\]/],
    [{ name: 'x'.repeat(256), scopes: ['all'] }, /\[name\]/],
  ];
  for (const [body, pattern] of cases) {
    const res = await rawCreate(me.username, JSON.stringify(body));
    assert.is(res.response.status, 422, JSON.stringify(body));
    assertSpecAnswer('userCreateToken', 422, res.body);
    assert.match(res.body.message, pattern, JSON.stringify(body));
  }
  assert.is(await tokenCount(me), before);
});

test('413: a body over the limit', async () => {
  const small = await startApp({ MAX_BODY_SIZE: '1024' });
  try {
    const response = await fetch(`${small.url}/api/v1/users/${small.admin.username}/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: small.admin.basic },
      body: JSON.stringify({ name: 'big', scopes: Array(200).fill('read:user') }),
    });
    assert.is(response.status, 413);
    const body = await response.json();
    assertSpecAnswer('userCreateToken', 413, body);
    assert.match(body.message, /larger than 1024 bytes/);
  } finally {
    await small.close();
  }
});

test.run();
