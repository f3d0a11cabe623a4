// Who is calling and the checks every operation shares (src/api/auth.ts), with the services replaced by
// small fakes, so that each rule is pinned in milliseconds: `make mutate` runs this file before the HTTP
// tests (tests/operations/authentication.test.ts), which check the same rules through the real app.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Context } from 'koa';
import { authenticate, authorize, type AccessRule, type Auth } from '../../src/api/auth.js';
import type { UserRow } from '../../src/db/schema/index.js';
import { Forbidden, NotFound, Unauthorized } from '../../src/services/errors.js';
import type { Services } from '../../src/services/index.js';

const tok = 'ab'.repeat(20);
const other = 'cd'.repeat(20);
const user = (id: number, name: string, o: Partial<UserRow> = {}) =>
  ({ id, name, lowerName: name.toLowerCase(), email: `${name.toLowerCase()}@example.com`, isActive: true, prohibitLogin: false, isAdmin: false, type: 'Individual', ...o }) as UserRow;
const alice = user(1, 'Alice');
const root = user(2, 'root', { isAdmin: true });
const org = user(3, 'acme', { type: 'Organization' });
const blocked = user(4, 'blocked', { prohibitLogin: true });
const inactive = user(5, 'inactive', { isActive: false });

interface Calls { resolved: string[]; passwords: string[]; names: string[] }
function setup(tokens: Record<string, { user: UserRow; scopes: string[] }> = { [tok]: { user: alice, scopes: ['read:user'] } }) {
  const calls: Calls = { resolved: [], passwords: [], names: [] };
  const services = {
    tokens: { resolve: async (t: string) => { calls.resolved.push(t); const hit = tokens[t]; return hit ? { user: hit.user, token: { scopes: hit.scopes } } : undefined; } },
    users: {
      authenticate: async (login: string, secret: string) => { calls.passwords.push(`${login}:${secret}`); return secret === 'pw' ? [alice, root, blocked].find((u) => u.lowerName === login.toLowerCase()) : undefined; },
      byName: async (name: string) => { calls.names.push(name); return [alice, root, org].find((u) => u.lowerName === name.toLowerCase()); },
    },
    // No Actions task token, no OAuth2 token and no second factor here (their own tests cover them).
    runners: { taskAccess: async () => undefined },
    oauth: { resolveAccessToken: async () => undefined },
    twoFactor: { basicAllowed: async () => true },
  } as unknown as Services;
  return { services, calls };
}
function ctx(headers: Record<string, string> = {}, query: Record<string, string | string[]> = {}) {
  const set: Record<string, string> = {};
  const c = { get: (h: string) => headers[h] ?? headers[h.toLowerCase()] ?? '', query, set: (k: string, v: string) => (set[k] = v) } as unknown as Context;
  return { c, set };
}
const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;
async function refused(p: Promise<unknown>, kind: new (...a: never[]) => Error, message?: string) {
  try {
    await p;
  } catch (err) {
    assert.instance(err, kind);
    if (message !== undefined) assert.is((err as Error).message, message);
    return;
  }
  assert.unreachable(`expected ${kind.name}`);
}

test('no credentials: anonymous, no service asked', async () => {
  const { services, calls } = setup();
  const a = await authenticate(ctx().c, services);
  assert.equal(a, { actor: null, method: 'none', signedIn: null });
  assert.equal(calls, { resolved: [], passwords: [], names: [] });
});

test('Basic with a password, by username or e-mail; a wrong one is 401 with the reason', async () => {
  const { services } = setup();
  const a = await authenticate(ctx({ Authorization: basic('alice:pw') }).c, services);
  assert.is(a.actor, alice);
  assert.is(a.signedIn, alice);
  assert.is(a.method, 'password');
  assert.is(a.scopes, undefined);
  await refused(authenticate(ctx({ Authorization: basic('alice:nope') }).c, services), Unauthorized, 'user does not exist or password is incorrect');
  await refused(authenticate(ctx({ Authorization: basic(`alice:${other}`) }).c, services), Unauthorized, 'user does not exist or token is invalid');
  await refused(authenticate(ctx({ Authorization: basic('alice') }).c, services), Unauthorized, 'invalid basic authentication');
  await refused(authenticate(ctx({ Authorization: basic('al\0ice:pw') }).c, services), Unauthorized, 'user does not exist or password is incorrect');
  // The password may contain colons: only the first one separates.
  const { services: s2, calls } = setup();
  await refused(authenticate(ctx({ Authorization: basic('alice:p:w') }).c, s2), Unauthorized);
  assert.equal(calls.passwords, ['alice:p:w']);
});

test('Basic with the token as the username and an empty password or x-oauth-basic', async () => {
  for (const secret of ['', 'x-oauth-basic']) {
    const { services } = setup();
    const a = await authenticate(ctx({ Authorization: basic(`${tok.toUpperCase()}:${secret}`) }).c, services);
    assert.is(a.actor, alice, secret);
    assert.is(a.method, 'token');
    assert.equal(a.scopes, ['read:user']);
  }
  // Any other password: a password sign-in of a user named like a token.
  const { services, calls } = setup();
  await refused(authenticate(ctx({ Authorization: basic(`${tok}:other`) }).c, services), Unauthorized);
  assert.equal(calls.resolved, []);
  assert.equal(calls.passwords, [`${tok}:other`]);
  // An unknown token as the username is 401.
  await refused(authenticate(ctx({ Authorization: basic(`${other}:`) }).c, setup().services), Unauthorized, 'user does not exist or token is invalid');
});

test('Basic with a token as the password: the username, e-mail, "oauth2", the token or nothing as login', async () => {
  for (const login of ['Alice', 'ALICE@example.com', 'oauth2', tok.toUpperCase(), '']) {
    const { services, calls } = setup();
    const a = await authenticate(ctx({ Authorization: basic(`${login}:${tok.toUpperCase()}`) }).c, services);
    assert.is(a.method, 'token', login);
    assert.is(a.actor, alice, login);
    assert.equal(a.scopes, ['read:user']);
    assert.equal(calls.resolved, [tok], 'the token is looked up in lower case');
    assert.equal(calls.passwords, [], login);
  }
  // Another user's login with a token: that user's password sign-in (a password that looks like a token).
  const { services, calls } = setup();
  await refused(authenticate(ctx({ Authorization: basic(`root:${tok}`) }).c, services), Unauthorized, 'user does not exist or token is invalid');
  assert.equal(calls.passwords, [`root:${tok}`]);
  const { services: s2 } = setup({ [tok]: { user: alice, scopes: ['all'] } });
  (s2.users as unknown as { authenticate: () => Promise<UserRow> }).authenticate = async () => root;
  const a = await authenticate(ctx({ Authorization: basic(`root:${tok}`) }).c, s2);
  assert.is(a.actor, root);
  assert.is(a.method, 'password');
  assert.is(a.scopes, undefined);
});

test('token and Bearer schemes, case-insensitive; malformed tokens never reach the database', async () => {
  for (const scheme of ['token', 'Token', 'bearer', 'Bearer', 'TOKEN']) {
    const { services } = setup();
    const a = await authenticate(ctx({ Authorization: `${scheme} ${tok.toUpperCase()}` }).c, services);
    assert.is(a.actor, alice, scheme);
    assert.is(a.signedIn, alice);
    assert.is(a.method, 'token');
    assert.equal(a.scopes, ['read:user']);
  }
  const { services, calls } = setup();
  await refused(authenticate(ctx({ Authorization: 'token abc' }).c, services), Unauthorized, 'user does not exist or token is invalid');
  await refused(authenticate(ctx({ Authorization: `token ${tok}x` }).c, services), Unauthorized);
  assert.equal(calls.resolved, []);
  await refused(authenticate(ctx({ Authorization: `token ${other}` }).c, services), Unauthorized, 'user does not exist or token is invalid');
  await refused(authenticate(ctx({ Authorization: `Digest ${tok}` }).c, services), Unauthorized, 'unsupported authorization scheme');
});

test('?token= and ?access_token= (the first value), with a deprecation Warning; an empty one is no token; a header wins', async () => {
  const queries: Array<Record<string, string | string[]>> = [{ token: tok }, { access_token: tok }, { token: [tok, other] }, { token: '', access_token: tok }];
  for (const query of queries) {
    const { services } = setup();
    const { c, set } = ctx({}, query);
    const a = await authenticate(c, services);
    assert.is(a.actor, alice, JSON.stringify(query));
    assert.is(a.method, 'token');
    assert.is(set.Warning, '299 anvil "token and access_token API authentication is deprecated"');
  }
  const { c, set } = ctx({}, { token: '' });
  assert.is((await authenticate(c, setup().services)).method, 'none');
  assert.is(set.Warning, undefined);
  const withHeader = ctx({ Authorization: basic('root:pw') }, { token: tok });
  const a = await authenticate(withHeader.c, setup().services);
  assert.is(a.actor, root);
  assert.is(withHeader.set.Warning, undefined);
});

test('an account that may not sign in (inactive or prohibited) is 403, by token or password', async () => {
  for (const u of [blocked, inactive]) {
    const { services } = setup({ [tok]: { user: u, scopes: ['all'] } });
    await refused(authenticate(ctx({ Authorization: `token ${tok}` }).c, services), Forbidden, 'This account is prohibited from signing in, please contact your site administrator.');
  }
  await refused(authenticate(ctx({ Authorization: basic('blocked:pw') }).c, setup().services), Forbidden);
});

test('Sudo (header or ?sudo=): site admins act as the named user; others 403; unknown users and organisations 404', async () => {
  const adminToken = { [tok]: { user: root, scopes: ['all'] } };
  for (const [headers, query] of [[{ Sudo: 'alice' }, {}], [{}, { sudo: 'alice' }]] as const) {
    const { services } = setup(adminToken);
    const a = await authenticate(ctx({ Authorization: `token ${tok}`, ...headers }, query).c, services);
    assert.is(a.actor, alice);
    assert.is(a.signedIn, root);
    assert.is(a.method, 'token');
    assert.equal(a.scopes, ['all']);
  }
  await refused(authenticate(ctx({ Authorization: basic('alice:pw'), Sudo: 'root' }).c, setup().services), Forbidden, 'Only administrators allowed to sudo.');
  await refused(authenticate(ctx({ Sudo: 'root' }).c, setup().services), Forbidden);
  await refused(authenticate(ctx({ Authorization: `token ${tok}`, Sudo: 'nobody' }).c, setup(adminToken).services), NotFound);
  await refused(authenticate(ctx({ Authorization: `token ${tok}`, Sudo: 'acme' }).c, setup(adminToken).services), NotFound);
  const { services, calls } = setup(adminToken);
  await refused(authenticate(ctx({ Authorization: `token ${tok}`, Sudo: 'ali\0ce' }).c, services), NotFound);
  assert.equal(calls.names, []);
});

test('the header is read trimmed; a token cut by a space is no token; an empty username is a user that does not exist', async () => {
  const a = await authenticate(ctx({ Authorization: `  token ${tok}  ` }).c, setup().services);
  assert.is(a.actor, alice);
  const { services, calls } = setup();
  await refused(authenticate(ctx({ Authorization: `token ${tok.slice(0, 20)} ${tok.slice(20)}` }).c, services), Unauthorized, 'user does not exist or token is invalid');
  assert.equal(calls.resolved, []);
  await refused(authenticate(ctx({ Authorization: basic(':pw') }).c, services), Unauthorized, 'user does not exist or password is incorrect');
  assert.equal(calls.passwords, [':pw']);
});

test('a NUL in Basic credentials is refused before any lookup (PostgreSQL cannot compare it)', async () => {
  const { services, calls } = setup();
  for (const cred of ['al\0ice:pw', 'alice:p\0w', `${tok}\0:`]) {
    await refused(authenticate(ctx({ Authorization: basic(cred) }).c, services), Unauthorized, 'user does not exist or password is incorrect');
  }
  assert.equal(calls, { resolved: [], passwords: [], names: [] });
});

const rule = (o: Partial<AccessRule> = {}): AccessRule => ({ anonymous: false, basicOnly: false, scopes: [], write: false, ...o });
const byToken = (scopes: string[], actor: UserRow = alice): Auth => ({ actor, signedIn: actor, method: 'token', scopes });
const byPassword = (actor: UserRow = alice): Auth => ({ actor, signedIn: actor, method: 'password' });
const anon: Auth = { actor: null, method: 'none', signedIn: null };
const throwsOf = (fn: () => void, kind: new (...a: never[]) => Error, message?: string) => {
  try {
    fn();
  } catch (err) {
    assert.instance(err, kind);
    if (message !== undefined) assert.is((err as Error).message, message);
    return;
  }
  assert.unreachable(`expected ${kind.name}`);
};

test('authorize: signed in unless the operation is open; Basic with a password where only that will do', () => {
  throwsOf(() => authorize(anon, rule()), Unauthorized, 'token is required');
  authorize(anon, rule({ anonymous: true }));
  authorize(byPassword(), rule());
  throwsOf(() => authorize(byToken(['all']), rule({ basicOnly: true })), Unauthorized, 'basic authentication with a password is required');
  throwsOf(() => authorize(anon, rule({ anonymous: true, basicOnly: true })), Unauthorized);
  authorize(byPassword(), rule({ basicOnly: true }));
});

test('authorize: a token needs the scope of every category, write for writes; passwords need none', () => {
  authorize(byToken(['read:repository']), rule({ scopes: ['repository'] }));
  throwsOf(() => authorize(byToken(['read:repository']), rule({ scopes: ['repository'], write: true })), Forbidden,
    'token does not have at least one of required scope(s): [write:repository]');
  authorize(byToken(['write:repository']), rule({ scopes: ['repository'], write: true }));
  throwsOf(() => authorize(byToken(['read:user']), rule({ scopes: ['repository', 'issue'] })), Forbidden,
    'token does not have at least one of required scope(s): [read:repository read:issue]');
  throwsOf(() => authorize(byToken(['read:issue']), rule({ scopes: ['repository', 'issue'] })), Forbidden,
    'token does not have at least one of required scope(s): [read:repository]');
  authorize(byToken(['read:user']), rule());
  authorize(byPassword(), rule({ scopes: ['repository'], write: true }));
  // A token row without scopes (none recorded) is not checked, as a password is not.
  authorize({ ...byToken([]), scopes: undefined }, rule({ scopes: ['repository'], write: true }));
});

test('authorize: the admin category also needs a site admin, whatever the token grants', () => {
  throwsOf(() => authorize(byToken(['all']), rule({ scopes: ['admin'] })), Forbidden, 'user should be the site admin');
  throwsOf(() => authorize(byPassword(), rule({ scopes: ['admin'] })), Forbidden, 'user should be the site admin');
  throwsOf(() => authorize(anon, rule({ anonymous: true, scopes: ['admin'] })), Forbidden);
  authorize(byToken(['all'], root), rule({ scopes: ['admin'] }));
  authorize(byPassword(root), rule({ scopes: ['admin'], write: true }));
  throwsOf(() => authorize(byToken(['read:admin'], root), rule({ scopes: ['admin'], write: true })), Forbidden, 'token does not have at least one of required scope(s): [write:admin]');
});

test.run();
