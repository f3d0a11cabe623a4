// userAddEmail: add addresses to the caller; one account per address, all or none.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addEmails, addressesOf } from '../../helpers/emails.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app.close();
});

const messageOf = (error: unknown) => (error as { message: string }).message;

test('201: the new addresses are added, activated, and every address of the caller is answered', async () => {
  const me = await app.user();
  const res = await addEmails(app, await app.token(me, ['write:user']), [`Work-${me.username}@Example.org`, `home-${me.username}@example.org`]);
  assert.is(res.response.status, 201);
  assertSpec('userAddEmail', res);
  assert.equal(res.data, [
    { email: me.email, verified: true, primary: true, user_id: me.id, username: me.username },
    { email: `Work-${me.username}@Example.org`, verified: true, primary: false, user_id: me.id, username: me.username },
    { email: `home-${me.username}@example.org`, verified: true, primary: false, user_id: me.id, username: me.username },
  ]);
  // The same address twice in one request is one address.
  const twice = await addEmails(app, await app.token(me), [`dup-${me.username}@example.org`, `DUP-${me.username}@example.org`]);
  assert.is(twice.data!.length, 4);
});

test('422: used by anyone (case-insensitive, the caller included), malformed, empty list; nothing is added', async () => {
  const me = await app.user();
  const other = await app.user();
  const auth = await app.token(me);
  const mine = `mine-${me.username}@example.org`;
  await addEmails(app, auth, [mine]);
  const before = await addressesOf(app, me);
  for (const [emails, pattern] of [
    [[`new-${me.username}@example.org`, other.email.toUpperCase()], /^Email address has been used: /],
    [[mine.toUpperCase()], /^Email address has been used: /],
    [[me.email], /^Email address has been used: /],
    [[`ok-${me.username}@example.org`, 'not-an-address'], /email/],
    [[''], /email/],
    [[], /^Email list empty$/],
  ] as Array<[string[], RegExp]>) {
    const res = await addEmails(app, auth, emails);
    assert.is(res.response.status, 422, JSON.stringify(emails));
    assertSpec('userAddEmail', res);
    assert.match(messageOf(res.error), pattern);
  }
  assert.equal(await addressesOf(app, me), before);
  // The address of another account cannot be signed up with either.
  const taken = await app.client(await app.token(app.admin)).POST('/admin/users', { body: { username: `n${me.id}x`, email: mine.toUpperCase(), password: 'correct-horse' } });
  assert.is(taken.response.status, 422);
});

test('422 for all but one: ten accounts adding one address at once', async () => {
  const people = await Promise.all(Array.from({ length: 10 }, () => app.user()));
  const tokens = await Promise.all(people.map((p) => app.token(p)));
  const address = `race-${people[0]!.username}@example.org`;
  const results = await Promise.all(tokens.map((t) => addEmails(app, t, [address])));
  const statuses = results.map((r) => r.response.status).sort();
  assert.equal(statuses, [201, ...Array(9).fill(422)]);
  const owners = (await Promise.all(people.map((p) => addressesOf(app, p)))).filter((a) => a.includes(address));
  assert.is(owners.length, 1);
});

test('401, 403: anonymous; a token with read:user only', async () => {
  const anon = await addEmails(app, null, ['a@example.org']);
  assert.is(anon.response.status, 401);
  assertSpec('userAddEmail', anon);
  const me = await app.user();
  const scoped = await addEmails(app, await app.token(me, ['read:user']), [`s-${me.username}@example.org`]);
  assert.is(scoped.response.status, 403);
  assert.match(messageOf(scoped.error), /write:user/);
  assert.equal(await addressesOf(app, me), [me.email.toLowerCase()]);
});

test('422: a body of the wrong shape; 400: no JSON at all', async () => {
  const auth = await app.token(await app.user());
  for (const [body, status] of [['{"emails":"a@example.org"}', 422], ['{"emails":[1]}', 422], ['[]', 422], ['{', 400]] as const) {
    const res = await fetch(`${app.url}/api/v1/user/emails`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body });
    assert.is(res.status, status, body);
  }
});

test.run();
