import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type Client, type TestApp, type TestUser } from '../../helpers/harness.js';
import { assertSpec, assertSpecAnswer } from '../../helpers/spec-check.js';

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
const list = (client: Client, username: string, query: { page?: number; limit?: number } = {}) =>
  client.GET('/users/{username}/tokens', { params: { path: { username }, query } });

/** A user with `n` tokens named t0..t(n-1), created in that order through the service layer. */
async function userWithTokens(n: number, opts: Parameters<TestApp['user']>[0] = {}) {
  const user = await app.user(opts);
  const tokens: Array<{ id: number; name: string; secret: string }> = [];
  for (let i = 0; i < n; i++) {
    const { row, token } = await app.services.tokens.create(user.id, `t${i}`, i % 2 ? ['read:user'] : ['all']);
    tokens.push({ id: row.id, name: row.name, secret: token });
  }
  return { user, tokens, auth: `token ${tokens[0]?.secret}` };
}

function links(header: string | null): Record<string, URL> {
  const out: Record<string, URL> = {};
  for (const part of (header ?? '').split(',').filter(Boolean)) {
    const m = /<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
    assert.ok(m, `bad Link part ${part}`);
    out[m![2]!] = new URL(m![1]!);
  }
  return out;
}

test('200: the user lists their tokens, newest first, without the secret', async () => {
  const { user, tokens } = await userWithTokens(3);
  const result = await list(app.client(user.basic), user.username);
  assert.is(result.response.status, 200);
  assertSpec('userGetTokens', result);
  assert.equal(result.data!.map((t) => t.name), ['t2', 't1', 't0']);
  for (const t of result.data!) {
    const made = tokens.find((x) => x.id === t.id)!;
    assert.ok(made, `token ${t.id} is the user's`);
    assert.is(t.sha1, '', 'the secret is never shown again');
    assert.is(t.token_last_eight, made.secret.slice(-8));
    assert.equal(t.scopes, t.name === 't1' ? ['read:user'] : ['all']);
    assert.is(t.last_used_at, null);
  }
  assert.ok(!JSON.stringify(result.data).includes(tokens[0]!.secret));
  assert.is(result.response.headers.get('x-total-count'), '3');
  assert.is(result.response.headers.get('link'), null, 'one page: no links');
  assert.match(result.response.headers.get('access-control-expose-headers') ?? '', /X-Total-Count/);
  assert.match(result.response.headers.get('access-control-expose-headers') ?? '', /Link/);
});

test('200: a token that was used shows last_used_at; other users\' tokens are not listed', async () => {
  const { user, tokens, auth } = await userWithTokens(2);
  await userWithTokens(2); // someone else's
  const used = await app.client(auth).GET('/user');
  assert.is(used.response.status, 200);
  const result = await list(app.client(auth), user.username);
  assert.is(result.response.status, 200);
  assert.equal(result.data!.map((t) => t.id).sort(), tokens.map((t) => t.id).sort());
  const t0 = result.data!.find((t) => t.name === 't0')!;
  assert.type(t0.last_used_at, 'string');
  assert.ok(Math.abs(Date.parse(t0.last_used_at!) - Date.now()) < 60_000);
  assert.is(result.data!.find((t) => t.name === 't1')!.last_used_at, null);
});

test('200: an empty list has X-Total-Count 0 and no Link', async () => {
  const user = await app.user();
  const result = await list(app.client(user.basic), user.username);
  assert.is(result.response.status, 200);
  assert.equal(result.data, []);
  assert.is(result.response.headers.get('x-total-count'), '0');
  assert.is(result.response.headers.get('link'), null);
});

test('200: pages with X-Total-Count and Link (next, last, first, prev)', async () => {
  const { user, auth } = await userWithTokens(5);
  const client = app.client(auth);
  const seen: string[] = [];

  const p1 = await list(client, user.username, { page: 1, limit: 2 });
  assert.is(p1.response.status, 200);
  assertSpec('userGetTokens', p1);
  assert.equal(p1.data!.map((t) => t.name), ['t4', 't3']);
  assert.is(p1.response.headers.get('x-total-count'), '5');
  const l1 = links(p1.response.headers.get('link'));
  assert.equal(Object.keys(l1).sort(), ['last', 'next']);
  assert.is(l1.next!.pathname, `/api/v1/users/${user.username}/tokens`);
  assert.is(l1.next!.origin, new URL(app.config.rootUrl).origin);
  assert.is(l1.next!.searchParams.get('page'), '2');
  assert.is(l1.next!.searchParams.get('limit'), '2');
  assert.is(l1.last!.searchParams.get('page'), '3');
  seen.push(...p1.data!.map((t) => t.name));

  const p2 = await list(client, user.username, { page: 2, limit: 2 });
  assert.equal(p2.data!.map((t) => t.name), ['t2', 't1']);
  const l2 = links(p2.response.headers.get('link'));
  assert.equal(Object.keys(l2).sort(), ['first', 'last', 'next', 'prev']);
  assert.is(l2.first!.searchParams.get('page'), '1');
  assert.is(l2.prev!.searchParams.get('page'), '1');
  assert.is(l2.next!.searchParams.get('page'), '3');
  seen.push(...p2.data!.map((t) => t.name));

  // Following rel="next" as the Go SDK does.
  const p3 = await fetch(l2.next!, { headers: { Authorization: auth } });
  const p3body = (await p3.json()) as Array<{ name: string }>;
  assert.equal(p3body.map((t) => t.name), ['t0']);
  assert.is(p3.headers.get('x-total-count'), '5');
  const l3 = links(p3.headers.get('link'));
  assert.equal(Object.keys(l3).sort(), ['first', 'prev']);
  assert.is(l3.prev!.searchParams.get('page'), '2');
  seen.push(...p3body.map((t) => t.name));
  assert.equal(seen, ['t4', 't3', 't2', 't1', 't0'], 'every token once, across the pages');

  const beyond = await list(client, user.username, { page: 9, limit: 2 });
  assert.is(beyond.response.status, 200);
  assert.equal(beyond.data, []);
  assert.is(beyond.response.headers.get('x-total-count'), '5');
});

test('200: page below 1 is page 1; a limit of 0 or less is the default; a huge limit is clamped', async () => {
  const { user, auth } = await userWithTokens(3);
  const client = app.client(auth);
  for (const query of [{ page: 0, limit: 2 }, { page: -4, limit: 2 }]) {
    const r = await list(client, user.username, query);
    assert.is(r.response.status, 200);
    assert.equal(r.data!.map((t) => t.name), ['t2', 't1'], JSON.stringify(query));
  }
  for (const query of [{ limit: 0 }, { limit: -1 }, { limit: 1000 }]) {
    const r = await list(client, user.username, query);
    assert.is(r.data!.length, 3, JSON.stringify(query));
    assert.is(r.response.headers.get('link'), null);
  }
});

test('200: a site admin lists another user\'s tokens', async () => {
  const { user, tokens } = await userWithTokens(2, { visibility: 'private' });
  const result = await list(app.client(asAdmin), user.username);
  assert.is(result.response.status, 200);
  assertSpec('userGetTokens', result);
  assert.equal(result.data!.map((t) => t.id).sort(), tokens.map((t) => t.id).sort());
  assert.ok(result.data!.every((t) => t.sha1 === ''));
  const basicAdmin = await list(app.client(app.admin.basic), user.username);
  assert.is(basicAdmin.response.status, 200);
});

test('200: a token with read:user may list; Bearer and ?token= too', async () => {
  const user = await app.user();
  const t = (await app.token(user, ['read:user'])).slice('token '.length);
  const result = await list(app.client(`Bearer ${t}`), user.username);
  assert.is(result.response.status, 200);
  assert.is(result.data!.length, 1);
  const q = await fetch(`${app.url}/api/v1/users/${user.username}/tokens?token=${t}`);
  assert.is(q.status, 200);
  assert.is(q.headers.get('x-total-count'), '1');
  assert.match(q.headers.get('warning') ?? '', /deprecated/);
});

test('401: anonymous callers and bad credentials', async () => {
  const { user } = await userWithTokens(1);
  const anon = await list(app.client(), user.username);
  assert.is(anon.response.status, 401);
  assertSpec('userGetTokens', anon);
  assert.is(messageOf(anon.error), 'token is required');
  const bad = await list(app.client(`token ${'d'.repeat(40)}`), user.username);
  assert.is(bad.response.status, 401);
});

test('403: a plain user may not list someone else\'s tokens', async () => {
  const { user: owner } = await userWithTokens(1);
  const { auth } = await userWithTokens(1);
  const result = await list(app.client(auth), owner.username);
  assert.is(result.response.status, 403);
  assertSpec('userGetTokens', result);
  assert.is(messageOf(result.error), 'doer should be the site admin or the user itself');
  assert.is(result.response.headers.get('x-total-count'), null);
});

test('403: a token without a user scope', async () => {
  const user = await app.user();
  const t = await app.token(user, ['read:repository']);
  const result = await list(app.client(t), user.username);
  assert.is(result.response.status, 403);
  assert.is(messageOf(result.error), 'token does not have at least one of required scope(s): [read:user]');
});

test('404: an unknown user; a private user the caller may not see', async () => {
  const unknown = await list(app.client(asAdmin), 'no-such-user');
  assert.is(unknown.response.status, 404);
  assertSpec('userGetTokens', unknown);
  const { user: hidden } = await userWithTokens(1, { visibility: 'private' });
  const { auth } = await userWithTokens(1);
  const invisible = await list(app.client(auth), hidden.username);
  assert.is(invisible.response.status, 404);
});

test('422: page or limit that are not integers', async () => {
  const { user, auth } = await userWithTokens(1);
  for (const q of ['page=abc', 'limit=1.5', 'limit=ten', 'page=1e300', 'limit=0x10', 'page=99999999999999999999', 'limit=-9223372036854775809']) {
    const response = await fetch(`${app.url}/api/v1/users/${user.username}/tokens?${q}`, { headers: { Authorization: auth } });
    assert.is(response.status, 422, q);
    const body = await response.json();
    assertSpecAnswer('userGetTokens', 422, body);
    assert.match(body.message, q.startsWith('page') ? /^\[page\]/ : /^\[limit\]/, q);
  }
  const huge = await list(app.client(auth), user.username, { limit: 1e18 });
  assert.is(huge.response.status, 200, 'a huge limit within int64 is clamped, not refused');
  // An empty value is a parameter left out, as Go clients send it (#43).
  assert.is((await fetch(`${app.url}/api/v1/users/${user.username}/tokens?page=&limit=`, { headers: { Authorization: auth } })).status, 200, 'page= and limit=');
});

test('200: a page far past the end is empty, never a 5xx', async () => {
  const { user, auth } = await userWithTokens(1);
  for (const page of ['9223372036854775807', '4611686018427387904', '9007199254740993']) {
    const response = await fetch(`${app.url}/api/v1/users/${user.username}/tokens?page=${page}&limit=2`, { headers: { Authorization: auth } });
    assert.is(response.status, 200, page);
    assert.equal(await response.json(), [], page);
    assert.is(response.headers.get('x-total-count'), '1');
    const l = links(response.headers.get('link'));
    assert.is(l.first!.searchParams.get('page'), '1');
  }
});

test.run();
