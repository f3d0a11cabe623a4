// userDeleteEmail: delete addresses of the caller; never the primary, never someone else's, all or none.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addEmails, addressesOf, deleteEmails } from '../../helpers/emails.js';
import { startApp, type TestApp, type TestUser } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
test.before(async () => {
  app = await startApp();
});
test.after(async () => {
  await app.close();
});

const messageOf = (error: unknown) => (error as { message: string }).message;

async function withExtras(): Promise<{ me: TestUser; auth: string; a: string; b: string }> {
  const me = await app.user();
  const auth = await app.token(me);
  const [a, b] = [`a-${me.username}@example.org`, `b-${me.username}@example.org`];
  assert.is((await addEmails(app, auth, [a, b])).response.status, 201);
  return { me, auth, a, b };
}

test('204: the addresses go (matched case-insensitively); an empty list deletes nothing', async () => {
  const { me, auth, a, b } = await withExtras();
  const res = await deleteEmails(app, await app.token(me, ['write:user']), [a.toUpperCase()]);
  assert.is(res.response.status, 204);
  assertSpec('userDeleteEmail', res);
  assert.equal(await addressesOf(app, me), [b, me.email].sort());
  assert.is((await deleteEmails(app, auth, [])).response.status, 204);
  assert.equal(await addressesOf(app, me), [b, me.email].sort());
  // The address is free again: another account may add it.
  assert.is((await addEmails(app, await app.token(await app.user()), [a])).response.status, 201);
});

test('404: an address the caller does not have (another account\'s included); 422: the primary; nothing is deleted', async () => {
  const { me, auth, a } = await withExtras();
  const other = await app.user();
  const before = await addressesOf(app, me);
  const missing = await deleteEmails(app, auth, [a, `nobody-${me.username}@example.org`]);
  assert.is(missing.response.status, 404);
  assert.is(await missing.response.text(), '');
  assert.is((await deleteEmails(app, auth, [other.email])).response.status, 404);
  assert.equal(await addressesOf(app, other), [other.email.toLowerCase()]);
  const primary = await deleteEmails(app, auth, [a, me.email]);
  assert.is(primary.response.status, 422);
  assertSpec('userDeleteEmail', primary);
  assert.match(messageOf(primary.error), /primary email address cannot be deleted/);
  assert.equal(await addressesOf(app, me), before);
});

test('401, 403: anonymous; a token with read:user only', async () => {
  const { me, a } = await withExtras();
  const anon = await deleteEmails(app, null, [a]);
  assert.is(anon.response.status, 401);
  assertSpec('userDeleteEmail', anon);
  const scoped = await deleteEmails(app, await app.token(me, ['read:user']), [a]);
  assert.is(scoped.response.status, 403);
  assert.match(messageOf(scoped.error), /write:user/);
  assert.ok((await addressesOf(app, me)).includes(a));
});

test.run();
