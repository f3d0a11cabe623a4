// Cross-cutting behaviour of every operation: the ways to sign in, Sudo, the deprecated query tokens,
// request ids, and what answers routes and methods the spec does not have.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loginThrottles, users } from '../../src/db/schema/index.js';
import { basic, startApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { assertSpec, assertSpecAnswer } from '../helpers/spec-check.js';

let app: TestApp;
let me: TestUser;
let secret: string;
test.before(async () => {
  app = await startApp();
  me = await app.user();
  secret = (await app.token(me, ['read:user'])).slice('token '.length);
});
test.after(async () => {
  await app.close();
});

const messageOf = (error: unknown) => (error as { message: string }).message;
const swagger = () => `${app.config.rootUrl}api/swagger`;
async function raw(path: string, init: RequestInit = {}) {
  const response = await fetch(`${app.url}${path}`, init);
  const text = await response.text();
  return { response, text, body: text ? JSON.parse(text) : undefined };
}

// --- throttling wrong passwords --------------------------------------------------------------------

test('429: after five wrong passwords in a row each further one locks password sign-in 1, 2, 4 ... s; tokens pass', async () => {
  const victim = await app.user();
  const other = await app.user();
  const token = (await app.token(victim, ['read:user'])).slice('token '.length);
  const get = (auth: string) => raw('/api/v1/user', { headers: { Authorization: auth } });
  for (let i = 1; i <= 6; i++) {
    const r = await get(basic(victim.username, `wrong-${i}`));
    assert.is(r.response.status, 401, `failure ${i} is only refused`);
  }
  // The sixth failure locked the account for a second: even the right password waits, with Retry-After.
  const locked = await get(basic(victim.username, victim.password));
  assert.is(locked.response.status, 429);
  assert.is(locked.response.headers.get('retry-after'), '1');
  assert.equal(locked.body, { message: 'too many failed sign-in attempts for this account; try again later', url: swagger() });
  const byEmail = await get(basic(`${victim.username}@example.com`, victim.password));
  assert.is(byEmail.response.status, 429, "the e-mail login names the same account");
  // Tokens are never throttled, as the password or in a header; other accounts are not affected.
  assert.is((await get(basic(victim.username, token))).response.status, 200);
  assert.is((await get(`token ${token}`)).response.status, 200);
  assert.is((await get(basic(other.username, other.password))).response.status, 200);
  // The lock ends by itself; the right password then clears the record.
  await new Promise((r) => setTimeout(r, 1100));
  const back = await get(basic(victim.username, victim.password));
  assert.is(back.response.status, 200);
  assert.is((await get(basic(victim.username, 'wrong-again'))).response.status, 401, 'counting starts over');
  assert.is((await get(basic(victim.username, victim.password))).response.status, 200);
});

test('429: the lock doubles per failure and never exceeds a minute', async () => {
  const victim = await app.user();
  const id = victim.id;
  const db = app.services.deps.db;
  const lockAfter = async (failures: number) => {
    await db.delete(loginThrottles).where(eq(loginThrottles.userId, id));
    await db.insert(loginThrottles).values({ userId: id, failures, lastFailureAt: new Date(), lockedUntil: null });
    const r = await raw('/api/v1/user', { headers: { Authorization: basic(victim.username, 'nope') } });
    assert.is(r.response.status, 401);
    const [row] = await db.select().from(loginThrottles).where(eq(loginThrottles.userId, id));
    return Math.round((row!.lockedUntil!.getTime() - row!.lastFailureAt.getTime()) / 1000);
  };
  assert.is(await lockAfter(6), 2, 'the seventh failure: 2 s');
  assert.is(await lockAfter(8), 8, 'the ninth: 8 s');
  assert.is(await lockAfter(40), 60, 'capped at a minute');
  const r = await raw('/api/v1/user', { headers: { Authorization: basic(victim.username, victim.password) } });
  assert.is(r.response.status, 429);
  assert.ok(Number(r.response.headers.get('retry-after')) <= 60);
  // A quarter of an hour without failures starts the count over.
  await db.update(loginThrottles).set({ failures: 40, lastFailureAt: new Date(Date.now() - 16 * 60_000), lockedUntil: null }).where(eq(loginThrottles.userId, id));
  await raw('/api/v1/user', { headers: { Authorization: basic(victim.username, 'nope') } });
  const [row] = await db.select().from(loginThrottles).where(eq(loginThrottles.userId, id));
  assert.equal([row!.failures, row!.lockedUntil], [1, null]);
});

// --- the ways to sign in -------------------------------------------------------------------------

test('Basic with the username, and with the e-mail address in any case', async () => {
  for (const login of [me.username, me.username.toUpperCase(), me.email, me.email.toUpperCase()]) {
    const result = await app.client(basic(login, me.password)).GET('/user');
    assert.is(result.response.status, 200, login);
    assert.is(result.data!.id, me.id, login);
  }
});

test('Basic with a token as the password: the username, the e-mail or "oauth2" as login', async () => {
  for (const login of [me.username, me.email, 'oauth2']) {
    const result = await app.client(basic(login, secret)).GET('/user');
    assert.is(result.response.status, 200, login);
    assert.is(result.data!.id, me.id, login);
  }
  const other = await app.user();
  const wrongLogin = await app.client(basic(other.username, secret)).GET('/user');
  assert.is(wrongLogin.response.status, 401, 'a token cannot be used under another user\'s name');
  assert.is(messageOf(wrongLogin.error), 'user does not exist or token is invalid');
});

test('Basic with the token as the username and an empty password or x-oauth-basic (Renovate, GitHub-style clients)', async () => {
  for (const password of ['', 'x-oauth-basic']) {
    const result = await app.client(basic(secret, password)).GET('/user');
    assert.is(result.response.status, 200, JSON.stringify(password));
    assert.is(result.data!.id, me.id);
  }
  const unknown = await app.client(basic('f'.repeat(40), '')).GET('/user');
  assert.is(unknown.response.status, 401);
  assert.is(messageOf(unknown.error), 'user does not exist or token is invalid');
  const notAToken = await app.client(basic(me.username, '')).GET('/user');
  assert.is(notAToken.response.status, 401, 'a username with an empty password is no token');
  // git over HTTP reads the same credentials.
  const repo = await app.client(`token ${secret}`).POST('/user/repos', { body: { name: 'token-user', private: true } });
  assert.is(repo.response.status, 403, 'a read:user token may not create repositories');
  const admin = await app.token(app.admin, ['all']);
  const made = await app.client(admin).POST('/user/repos', { body: { name: 'token-user-git', private: true } });
  assert.is(made.response.status, 201);
  const refs = await fetch(`${app.url}/${app.admin.username}/token-user-git.git/info/refs?service=git-upload-pack`, { headers: { Authorization: basic(admin.slice('token '.length), '') } });
  assert.is(refs.status, 200, 'git accepts the token as the username');
});

test('a JSON body nested deeper than 64 levels is 400 with a message, never a 500', async () => {
  const auth = await app.token(me, ['all']);
  const deep = `${'['.repeat(8000)}${']'.repeat(8000)}`;
  for (const body of [deep, `{"name":"x","description":${deep}}`]) {
    const res = await raw('/api/v1/user/repos', { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body });
    assert.is(res.response.status, 400);
    assert.is(res.body.message, 'invalid JSON body: nested deeper than 64 levels');
  }
  const ok = await raw('/api/v1/user/repos', { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'shallow', nested: [[[[{ a: [1] }]]]] }) });
  assert.is(ok.response.status, 201, 'a shallow body is read as usual');
});

test('Basic: wrong password, unknown user, no colon, garbage', async () => {
  const cases: Array<[string, string]> = [
    [basic(me.username, 'wrong-password'), 'user does not exist or password is incorrect'],
    [basic('no-such-user', me.password), 'user does not exist or password is incorrect'],
    [basic('no-such-user@example.com', me.password), 'user does not exist or password is incorrect'],
    [`Basic ${Buffer.from('no-colon').toString('base64')}`, 'invalid basic authentication'],
    ['Basic', 'invalid basic authentication'],
    [basic(me.username, `${'e'.repeat(40)}`), 'user does not exist or token is invalid'],
  ];
  for (const [auth, message] of cases) {
    const result = await app.client(auth).GET('/user');
    assert.is(result.response.status, 401, auth);
    assertSpec('userGetCurrent', result);
    assert.equal(result.error, { message, url: swagger() }, auth);
  }
});

test('`token` and `Bearer` schemes, case-insensitive; the token value too', async () => {
  for (const auth of [`token ${secret}`, `Token ${secret}`, `Bearer ${secret}`, `BEARER ${secret}`, `token ${secret.toUpperCase()}`, `  token   ${secret}  `]) {
    const result = await app.client(auth).GET('/user');
    assert.is(result.response.status, 200, auth);
    assert.is(result.data!.id, me.id);
  }
});

test('a malformed or unknown token is 401 on every route, even ones open to anonymous callers', async () => {
  for (const auth of [`token ${'f'.repeat(40)}`, 'token short', 'token', `Bearer ${'0'.repeat(39)}`]) {
    const current = await app.client(auth).GET('/user');
    assert.is(current.response.status, 401, auth);
    assert.is(messageOf(current.error), 'user does not exist or token is invalid');
    const version = await app.client(auth).GET('/version');
    assert.is(version.response.status, 401, `${auth} on /version`);
  }
});

test('an unknown Authorization scheme is 401 with a message', async () => {
  for (const header of ['Digest username="x"', 'Negotiate abc', 'Bearer-ish abc', secret]) {
    const res = await raw('/api/v1/version', { headers: { Authorization: header } });
    assert.is(res.response.status, 401, header);
    assertSpecAnswer('getVersion', 401, res.body);
    assert.equal(res.body, { message: 'unsupported authorization scheme', url: swagger() });
    assert.match(res.response.headers.get('content-type') ?? '', /^application\/json/);
  }
});

test('?token= and ?access_token= work, with a deprecation Warning header', async () => {
  for (const param of ['token', 'access_token']) {
    const res = await raw(`/api/v1/user?${param}=${secret}`);
    assert.is(res.response.status, 200, param);
    assertSpecAnswer('userGetCurrent', 200, res.body);
    assert.is(res.body.id, me.id);
    assert.match(res.response.headers.get('warning') ?? '', /^299 \S+ ".*deprecated.*"$/);
  }
  const bad = await raw(`/api/v1/user?token=${'9'.repeat(40)}`);
  assert.is(bad.response.status, 401);
  assert.is(bad.body.message, 'user does not exist or token is invalid');
  const viaHeader = await app.client(`token ${secret}`).GET('/user');
  assert.is(viaHeader.response.headers.get('warning'), null, 'no warning for the header');
});

test('an empty ?token= is no token at all', async () => {
  const version = await raw('/api/v1/version?token=');
  assert.is(version.response.status, 200);
  const current = await raw('/api/v1/user?token=');
  assert.is(current.response.status, 401);
  assert.is(current.body.message, 'token is required');
  const fallback = await raw(`/api/v1/user?token=&access_token=${secret}`);
  assert.is(fallback.response.status, 200, 'access_token is used when token is empty');
  assert.is(fallback.body.id, me.id);
});

test('unknown query parameters are ignored, not refused', async () => {
  const withToken = await raw(`/api/v1/user?foo=1&token=${secret}&bar=baz`);
  assert.is(withToken.response.status, 200);
  assert.is(withToken.body.id, me.id);
  const anon = await raw(`/api/v1/users/${me.username}?foo=1&limit=abc`);
  assert.is(anon.response.status, 200, 'parameters the operation does not declare are not validated');
  assert.is(anon.body.login, me.username);
  const version = await raw('/api/v1/version?x-gitea-otp=123456');
  assert.is(version.response.status, 200);
});

test('X-Gitea-OTP is ignored (no two-factor auth)', async () => {
  const result = await app.client(me.basic).GET('/user', { headers: { 'X-Gitea-OTP': '123456' } });
  assert.is(result.response.status, 200);
});

test('a token\'s scopes: write implies read, all grants everything, another category grants nothing', async () => {
  const write = await app.token(me, ['write:user']);
  assert.is((await app.client(write).GET('/user')).response.status, 200);
  const all = await app.token(me, ['all']);
  assert.is((await app.client(all).GET('/user')).response.status, 200);
  const other = await app.token(me, ['write:issue', 'write:repository', 'write:admin']);
  const refused = await app.client(other).GET('/user');
  assert.is(refused.response.status, 403);
  assert.is(messageOf(refused.error), 'token does not have at least one of required scope(s): [read:user]');
  const version = await app.client(other).GET('/version');
  assert.is(version.response.status, 200, '/version needs no scope');
});

test('an account that may not sign in: its tokens are 403, its password is 401', async () => {
  const blocked = await app.user();
  const token = await app.token(blocked);
  await app.services.deps.db.update(users).set({ prohibitLogin: true }).where(eq(users.id, blocked.id));
  const byToken = await app.client(token).GET('/user');
  assert.is(byToken.response.status, 403);
  assertSpec('userGetCurrent', byToken);
  assert.is(messageOf(byToken.error), 'This account is prohibited from signing in, please contact your site administrator.');
  const byPassword = await app.client(blocked.basic).GET('/user');
  assert.is(byPassword.response.status, 401);

  const inactive = await app.user();
  const inactiveToken = await app.token(inactive);
  await app.services.deps.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
  assert.is((await app.client(inactiveToken).GET('/user')).response.status, 403);
  assert.is((await app.client(inactive.basic).GET('/user')).response.status, 401);
});

// --- Sudo ----------------------------------------------------------------------------------------

test('Sudo header and ?sudo= let a site admin act as the named user', async () => {
  const viaHeader = await app.client(app.admin.basic).GET('/user', { headers: { Sudo: me.username } });
  assert.is(viaHeader.response.status, 200);
  assert.is(viaHeader.data!.id, me.id);
  assert.is(viaHeader.data!.email, me.email);
  assert.is(viaHeader.data!.is_admin, false);

  const adminToken = (await app.token(app.admin, ['read:user'])).slice('token '.length);
  const viaQuery = await raw(`/api/v1/user?sudo=${me.username.toUpperCase()}`, { headers: { Authorization: `token ${adminToken}` } });
  assert.is(viaQuery.response.status, 200);
  assert.is(viaQuery.body.id, me.id);

  const bothQuery = await raw(`/api/v1/user?token=${adminToken}&sudo=${me.username}`);
  assert.is(bothQuery.response.status, 200);
  assert.is(bothQuery.body.login, me.username);
});

test('Sudo by a user who is not a site admin is 403', async () => {
  const other = await app.user();
  for (const auth of [me.basic, `token ${secret}`]) {
    const result = await app.client(auth).GET('/user', { headers: { Sudo: other.username } });
    assert.is(result.response.status, 403, auth);
    assertSpec('userGetCurrent', result);
    assert.equal(result.error, { message: 'Only administrators allowed to sudo.', url: swagger() });
  }
  const viaQuery = await raw(`/api/v1/user?sudo=${other.username}`, { headers: { Authorization: `token ${secret}` } });
  assert.is(viaQuery.response.status, 403);
  assert.is(viaQuery.body.message, 'Only administrators allowed to sudo.');
  const anonymous = await raw(`/api/v1/users/${other.username}?sudo=${other.username}`);
  assert.is(anonymous.response.status, 403, 'anonymous callers may not sudo either');
  const self = await app.client(me.basic).GET('/user', { headers: { Sudo: me.username } });
  assert.is(self.response.status, 403, 'not even as themselves');
});

test('Sudo to an unknown user is 404 with an empty body', async () => {
  const result = await app.client(app.admin.basic).GET('/user', { headers: { Sudo: 'no-such-user' } });
  assert.is(result.response.status, 404);
  assert.is(result.response.headers.get('content-length'), '0');
  const viaQuery = await raw('/api/v1/user?sudo=no-such-user', { headers: { Authorization: app.admin.basic } });
  assert.is(viaQuery.response.status, 404);
  assert.is(viaQuery.text, '');
});

// --- request ids, headers, unknown routes and methods --------------------------------------------

test('X-Request-Id is echoed, or made up when missing, on successes and errors alike', async () => {
  const ok = await raw('/api/v1/version', { headers: { 'X-Request-Id': 'req-abc-123' } });
  assert.is(ok.response.headers.get('x-request-id'), 'req-abc-123');
  const err = await raw('/api/v1/user', { headers: { 'X-Request-Id': 'req-err-1' } });
  assert.is(err.response.status, 401);
  assert.is(err.response.headers.get('x-request-id'), 'req-err-1');
  const missing = await raw('/api/v1/nowhere', { headers: { 'X-Request-Id': 'req-404' } });
  assert.is(missing.response.headers.get('x-request-id'), 'req-404');
  const made = await raw('/api/v1/version');
  assert.match(made.response.headers.get('x-request-id') ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const again = await raw('/api/v1/version');
  assert.is.not(again.response.headers.get('x-request-id'), made.response.headers.get('x-request-id'));
});

test('X-Total-Count and Link are exposed to browsers on every answer', async () => {
  for (const path of ['/api/v1/version', '/api/v1/user', '/api/v1/nowhere']) {
    const res = await raw(path);
    const exposed = (res.response.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    assert.ok(exposed.includes('X-Total-Count') && exposed.includes('Link'), `${path}: ${exposed}`);
  }
});

test('an unknown route is 404 with an empty body, whatever the credentials', async () => {
  for (const [path, init] of [
    ['/api/v1/nowhere', {}],
    ['/api/v1/users/x/y/z', {}],
    ['/api/v2/version', {}],
    ['/', {}],
    ['/api/v1/nowhere', { headers: { Authorization: 'Digest nope' } }],
    ['/api/v1/nowhere', { method: 'POST', body: '{not json', headers: { 'Content-Type': 'application/json' } }],
  ] as Array<[string, RequestInit]>) {
    const res = await raw(path, init);
    assert.is(res.response.status, 404, path);
    assert.is(res.text, '', `${path}: empty body`);
    assert.is(res.response.headers.get('content-length'), '0');
    assert.is(res.response.headers.get('content-type'), null);
  }
});

test('a wrong method on a known path is 405 JSON with Allow', async () => {
  const cases: Array<[string, string, string[]]> = [
    ['DELETE', '/api/v1/version', ['GET', 'HEAD']],
    ['POST', '/api/v1/user', ['GET', 'HEAD']],
    ['PUT', '/api/v1/admin/users', ['GET', 'HEAD', 'POST']],
    ['POST', '/api/v1/admin/cron', ['GET', 'HEAD']],
    ['PATCH', `/api/v1/users/${me.username}/tokens`, ['GET', 'HEAD', 'POST']],
    ['GET', `/api/v1/users/${me.username}/tokens/1`, ['DELETE']],
  ];
  for (const [method, path, allowed] of cases) {
    const res = await raw(path, { method, headers: { Authorization: me.basic } });
    assert.is(res.response.status, 405, `${method} ${path}`);
    assert.match(res.response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.body, { message: 'Method Not Allowed', url: swagger() });
    const allow = (res.response.headers.get('allow') ?? '').split(/,\s*/).sort();
    assert.equal(allow, allowed.sort(), `${method} ${path}: Allow`);
  }
});

test('OPTIONS on a known path lists the methods; HEAD answers like GET without a body', async () => {
  const options = await raw('/api/v1/version', { method: 'OPTIONS' });
  assert.is(options.response.status, 200);
  assert.equal((options.response.headers.get('allow') ?? '').split(/,\s*/).sort(), ['GET', 'HEAD']);
  const head = await raw('/api/v1/version', { method: 'HEAD' });
  assert.is(head.response.status, 200);
  assert.is(head.text, '');
});

test('every error but 404 is {message, url} with the swagger URL', async () => {
  const unauthorized = await raw('/api/v1/user');
  assert.equal(Object.keys(unauthorized.body).sort(), ['message', 'url']);
  assert.is(unauthorized.body.url, swagger());
  const forbidden = await raw('/api/v1/admin/users', { method: 'POST', headers: { Authorization: me.basic }, body: '{}' });
  assert.is(forbidden.response.status, 403);
  assert.equal(Object.keys(forbidden.body).sort(), ['message', 'url']);
});

test.run();
