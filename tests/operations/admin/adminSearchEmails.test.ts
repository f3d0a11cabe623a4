// adminSearchEmails: addresses matching a keyword in the address, the user's name or full name.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { users } from '../../../src/db/schema/index.js';
import { addEmails } from '../../helpers/emails.js';
import { startApp, type TestApp, type TestUser } from '../../helpers/harness.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let asAdmin: string;
let ann: TestUser;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['read:admin']);
  ann = await app.user();
  await app.services.deps.db.update(users).set({ fullName: 'Annabel Quux_100%' }).where(eq(users.id, ann.id));
  await addEmails(app, await app.token(ann), ['billing@corp.example']);
  await app.user();
});
test.after(async () => {
  await app.close();
});

const search = (q: string | undefined, extra: Record<string, number> = {}, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).GET('/admin/emails/search', { params: { query: { ...(q === undefined ? {} : { q }), ...extra } } });
const owners = async (q: string) => {
  const res = await search(q);
  assert.is(res.response.status, 200, q);
  assertSpec('adminSearchEmails', res);
  return res.data!.map((e) => `${e.username}:${e.email}`);
};

test('200: q (trimmed, any case) matches the address, the user name or the full name', async () => {
  const both = [`${ann.username}:billing@corp.example`, `${ann.username}:${ann.email}`];
  assert.equal(await owners('CORP.EX'), [`${ann.username}:billing@corp.example`], 'address');
  assert.equal(await owners(`  ${ann.username.toUpperCase()}  `), both, 'user name');
  assert.equal(await owners('annabel quux'), both, 'full name');
  assert.equal(await owners('quux_100%'), both, '% and _ are plain characters');
  assert.equal(await owners('quux_1000'), []);
  const res = await search('example', { limit: 1 });
  assert.is(res.data!.length, 1);
  assert.ok(Number(res.response.headers.get('x-total-count')) >= 3);
  assert.match(res.response.headers.get('link') ?? '', /q=example/);
});

test('200: an empty or blank q lists everything, as GET /admin/emails', async () => {
  const all = (await app.client(asAdmin).GET('/admin/emails', { params: { query: { limit: 50 } } })).data!;
  assert.equal((await search(undefined, { limit: 50 })).data, all);
  assert.equal((await search('   ', { limit: 50 })).data, all);
});

test('401, 403: anonymous, a plain user, a token without read:admin', async () => {
  const anon = await search('a', {}, null);
  assert.is(anon.response.status, 401);
  assertSpec('adminSearchEmails', anon);
  const plain = await search('a', {}, await app.token(ann));
  assert.is(plain.response.status, 403);
  assertSpec('adminSearchEmails', plain);
  assert.is((await search('a', {}, await app.token(app.admin, ['read:user']))).response.status, 403);
});

test.run();
