// adminSearchUsers: individual users, by name, with the keyword and source filters.
import { eq } from 'drizzle-orm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { users } from '../../../src/db/schema/index.js';
import { addEmails } from '../../helpers/emails.js';
import { startApp, type TestApp, type TestUser } from '../../helpers/harness.js';
import { createOrg } from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly } from '../../helpers/userAdmin.js';

let app: TestApp;
let asAdmin: string;
let ann: TestUser;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['read:admin']);
  ann = await app.user();
  await app.services.deps.db.update(users).set({ fullName: 'Annabel Zyx', loginName: 'ann-ldap' }).where(eq(users.id, ann.id));
  await addEmails(app, await app.token(ann), ['second-zyx@corp.example']);
  await createOrg(app, ann);
  await app.user();
});
test.after(async () => {
  await app.close();
});

const search = (query: Record<string, string | number> = {}, auth: string | null = asAdmin) =>
  app.client(auth ?? undefined).GET('/admin/users', { params: { query } });
const names = async (query: Record<string, string | number>) => {
  const res = await search(query);
  assert.is(res.response.status, 200, JSON.stringify(query));
  assertSpec('adminSearchUsers', res);
  return res.data!.map((u) => u.login);
};

test('200: every individual user by name, admin fields shown; no organization', async () => {
  const res = await search({ limit: 50 });
  assert.is(res.response.status, 200);
  assertSpec('adminSearchUsers', res);
  const logins = res.data!.map((u) => u.login);
  assert.equal(logins, [...logins].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  assert.ok(logins.includes(app.admin.username) && logins.includes(ann.username));
  assert.ok(res.data!.every((u) => u.login.startsWith('org') === false), 'no organization');
  const a = res.data!.find((u) => u.login === ann.username)!;
  assert.equal([a.email, a.login_name, a.active], [ann.email, 'ann-ldap', true]);
  assert.is(res.response.headers.get('x-total-count'), String(logins.length));
});

test('200: q in name, full name or any address; login_name and source_id', async () => {
  assert.equal(await names({ q: ` ${ann.username.toUpperCase()} ` }), [ann.username]);
  assert.equal(await names({ q: 'annabel zy' }), [ann.username]);
  assert.equal(await names({ q: 'SECOND-ZYX@' }), [ann.username], 'a secondary address');
  assert.equal(await names({ q: 'no-such-thing' }), []);
  assert.equal(await names({ login_name: 'ann-ldap' }), [ann.username]);
  assert.ok((await names({ source_id: 0, limit: 50 })).length >= 3);
  assert.equal(await names({ source_id: 7 }), []);
  const p = await search({ limit: 1, page: 2 });
  assert.is(p.data!.length, 1);
  assert.match(p.response.headers.get('link') ?? '', /rel="prev"/);
});

test('401, 403; 422 for a source_id that is no integer', async () => {
  await assertAdminOnly(app, (auth) => search({}, auth), 'read:admin');
  assert.is((await fetch(`${app.url}/api/v1/admin/users?source_id=x`, { headers: { Authorization: asAdmin } })).status, 422);
});

test.run();
