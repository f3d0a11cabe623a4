// orgGetHookDelivery: get a delivery with its attempts, for every role that matters.
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

const call = (auth: string | undefined, id = w.hooks.org.id, delivery_id = w.deliveries.org) =>
  app.client(auth).GET('/orgs/{org}/hooks/{id}/deliveries/{delivery_id}', { params: { path: { org: w.org, id, delivery_id } } });

test('200: the delivery with its payload and attempts', async () => {
  for (const who of rolesOf(w, 'org').allowed) {
    const r = await call(who.auth);
    assert.is(r.response.status, 200, who.username);
    assertSpec('orgGetHookDelivery', r);
    assert.is(r.data!.id, w.deliveries.org);
    assert.ok(JSON.parse(r.data!.request.payload).repository, 'the payload sent');
    assert.equal(r.data!.attempts, []);
  }
});

test('404: an unknown delivery, and a delivery of another hook', async () => {
  for (const d of [987654, w.deliveries.repo]) {
    const r = await call(w.orgOwner.auth, w.hooks.org.id, d);
    assert.is(r.response.status, 404, String(d));
    assertSpec('orgGetHookDelivery', r);
  }
});

test('401: anonymous callers', async () => {
  const r = await call(undefined);
  assert.is(r.response.status, 401);
  assertSpec('orgGetHookDelivery', r);
});

test('403: signed in without the right to manage the hooks of an organisation', async () => {
  for (const who of rolesOf(w, 'org').forbidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('orgGetHookDelivery', r);
  }
});

test('404: an unknown organisation', async () => {
  const r = await app.client(w.admin.auth).GET('/orgs/{org}/hooks/{id}/deliveries/{delivery_id}', { params: { path: { org: 'no-such-org-x', id: 1, delivery_id: 1 } } });
  assert.is(r.response.status, 404);
});

test.run();
