// adminGetAllEmails: every address of individual users, for every role.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addEmails } from '../../helpers/emails.js';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let asAdmin: string;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['read:admin']);
});
test.after(async () => {
  await app.close();
});

const list = (query: Record<string, string | number> = {}, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).GET('/admin/emails', { params: { query } });

test('200: addresses of users (not organizations), by lower-cased address, primary first; q is ignored', async () => {
  const ann = await app.user();
  await addEmails(app, await app.token(ann), ['Zed@example.org', 'alpha@example.org']);
  const org = await app.client(await app.token(app.admin)).POST('/orgs', { body: { username: `org${ann.id}`, email: 'org-contact@example.org' } });
  assert.is(org.response.status, 201);
  const res = await list({ q: 'nothing-matches-this' });
  assert.is(res.response.status, 200);
  assertSpec('adminGetAllEmails', res);
  const emails = res.data!;
  assert.equal(emails.map((e) => e.email.toLowerCase()), [...emails.map((e) => e.email.toLowerCase())].sort(), 'ordered by address');
  assert.ok(!emails.some((e) => e.email === 'org-contact@example.org'), 'no organization');
  assert.equal(emails.filter((e) => e.user_id === ann.id).map((e) => [e.email, e.primary, e.username]), [
    ['alpha@example.org', false, ann.username], [ann.email, true, ann.username], ['Zed@example.org', false, ann.username],
  ]);
  assert.ok(emails.some((e) => e.user_id === app.admin.id && e.primary));
  assert.is(res.response.headers.get('x-total-count'), String(emails.length));
});

test('200: pages, X-Total-Count and Link', async () => {
  for (let i = 0; i < 3; i++) await app.user();
  const all = (await list({ limit: 50 })).data!;
  assert.ok(all.length >= 5);
  const p2 = await list({ page: 2, limit: 2 });
  assertSpec('adminGetAllEmails', p2);
  assert.equal(p2.data, all.slice(2, 4));
  assert.is(p2.response.headers.get('x-total-count'), String(all.length));
  assert.match(p2.response.headers.get('link') ?? '', /rel="next".*rel="last".*rel="first".*rel="prev"/);
});

test('401, 403: anonymous, a plain user, a token without read:admin', async () => {
  const anon = await list({}, null);
  assert.is(anon.response.status, 401);
  assertSpec('adminGetAllEmails', anon);
  const plain = await list({}, await app.token(await app.user()));
  assert.is(plain.response.status, 403);
  assertSpec('adminGetAllEmails', plain);
  assert.is((plain.error as { message: string }).message, 'user should be the site admin');
  assert.is((await list({}, await app.token(app.admin, ['read:user']))).response.status, 403);
});

test.run();
