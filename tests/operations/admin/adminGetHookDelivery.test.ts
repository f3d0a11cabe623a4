// adminGetHookDelivery: get a delivery with its attempts, for every role that matters.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startApp, type TestApp } from '../../helpers/harness.js';
import { deadUrl, hookWorld, rolesOf, type HookWorld } from '../../helpers/hookRoles.js';
import { hookBody } from '../../helpers/hooks.js';
import { assertSpec } from '../../helpers/spec-check.js';

let app: TestApp;
let w: HookWorld;
test.before(async () => {
  app = await startApp();
  w = await hookWorld(app);
});
test.after(async () => {
  await app?.close();
});
void hookBody;
void deadUrl;

const call = (auth: string | undefined, id = w.hooks.admin.id, delivery_id = w.deliveries.admin) =>
  app.client(auth).GET('/admin/hooks/{id}/deliveries/{delivery_id}', { params: { path: { id, delivery_id } } });

test('200: the delivery with its payload and attempts', async () => {
  for (const who of rolesOf(w, 'admin').allowed) {
    const r = await call(who.auth);
    assert.is(r.response.status, 200, who.username);
    assertSpec('adminGetHookDelivery', r);
    assert.is(r.data!.id, w.deliveries.admin);
    assert.ok(JSON.parse(r.data!.request.payload).repository, 'the payload sent');
    assert.equal(r.data!.attempts, []);
  }
});

test('404: an unknown delivery, and a delivery of another hook', async () => {
  for (const d of [987654, w.deliveries.repo]) {
    const r = await call(w.admin.auth, w.hooks.admin.id, d);
    assert.is(r.response.status, 404, String(d));
    assertSpec('adminGetHookDelivery', r);
  }
});

test('401: anonymous callers', async () => {
  const r = await call(undefined);
  assert.is(r.response.status, 401);
  assertSpec('adminGetHookDelivery', r);
});

test('403: signed in without the right to manage the hooks of the site', async () => {
  for (const who of rolesOf(w, 'admin').forbidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('adminGetHookDelivery', r);
  }
});

test.run();
