// adminGetAllOrgs: every organization, private ones included.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { createOrg } from '../../helpers/orgs.js';
import { assertSpec } from '../../helpers/spec-check.js';
import { assertAdminOnly } from '../../helpers/userAdmin.js';

let app: TestApp;
let asAdmin: string;
test.before(async () => {
  app = await startApp();
  asAdmin = await app.token(app.admin, ['read:admin']);
});
test.after(async () => {
  await app.close();
});

const list = (query: Record<string, number> = {}, auth: string | null = asAdmin) => app.client(auth ?? undefined).GET('/admin/orgs', { params: { query } });

test('200: public, limited and private organizations by name; pages', async () => {
  const owner = await app.user();
  const made = [await createOrg(app, owner, { visibility: 'private' }), await createOrg(app, owner, { visibility: 'limited' }), await createOrg(app, owner)];
  const res = await list({ limit: 50 });
  assert.is(res.response.status, 200);
  assertSpec('adminGetAllOrgs', res);
  const names = res.data!.map((o) => o.name);
  for (const o of made) assert.ok(names.includes(o.name), o.name);
  assert.equal(names, [...names].sort());
  assert.ok(!names.includes(owner.username), 'no user');
  assert.equal(res.data!.find((o) => o.name === made[0]!.name)!.visibility, 'private');
  const p2 = await list({ limit: 1, page: 2 });
  assert.equal(p2.data!.map((o) => o.name), [names[1]]);
  assert.is(p2.response.headers.get('x-total-count'), String(names.length));
});

test('401, 403', async () => {
  await assertAdminOnly(app, (auth) => list({}, auth), 'read:admin');
});

test.run();
