// userListEmails: the caller's addresses, the primary first.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addEmails, listEmails } from '../../helpers/emails.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app.close();
});

test('200: the primary first, then the added ones in order; nobody else\'s', async () => {
  const me = await app.user();
  const auth = await app.token(me, ['write:user']);
  const only = await listEmails(app, auth);
  assert.is(only.response.status, 200);
  assertSpec('userListEmails', only);
  assert.equal(only.data, [{ email: me.email, verified: true, primary: true, user_id: me.id, username: me.username }]);
  assert.is((await addEmails(app, auth, [`b-${me.username}@example.org`, `a-${me.username}@example.org`])).response.status, 201);
  const other = await app.user();
  await addEmails(app, await app.token(other), [`x-${other.username}@example.org`]);
  const all = (await listEmails(app, await app.token(me, ['read:user']))).data!;
  assert.equal(all.map((e) => [e.email, e.primary]), [[me.email, true], [`b-${me.username}@example.org`, false], [`a-${me.username}@example.org`, false]]);
  assert.ok(all.every((e) => e.user_id === me.id && e.username === me.username && e.verified));
});

test('401, 403: anonymous; a token without read:user', async () => {
  const anon = await listEmails(app, null);
  assert.is(anon.response.status, 401);
  assertSpec('userListEmails', anon);
  const scoped = await listEmails(app, await app.token(await app.user(), ['read:repository']));
  assert.is(scoped.response.status, 403);
  assertSpec('userListEmails', scoped);
  assert.match((scoped.error as { message: string }).message, /read:user/);
});

test.run();
