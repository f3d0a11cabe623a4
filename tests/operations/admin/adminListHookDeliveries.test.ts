// adminListHookDeliveries: list a hook's deliveries, for every role that matters.
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

const call = (auth: string | undefined, id = w.hooks.admin.id) =>
  app.client(auth).GET('/admin/hooks/{id}/deliveries', { params: { path: { id } } });

test('200: newest first, with X-Total-Count', async () => {
  for (const who of rolesOf(w, 'admin').allowed) {
    const r = await call(who.auth);
    assert.is(r.response.status, 200, who.username);
    assertSpec('adminListHookDeliveries', r);
    assert.ok(r.data!.some((d) => d.id === w.deliveries.admin));
    assert.is(r.data![0]!.state, 'pending');
    assert.is(r.response.headers.get('x-total-count'), String(r.data!.length));
  }
});

test('404: an unknown hook, and a hook of another scope', async () => {
  for (const id of [987654, w.hooks.org.id]) {
    const r = await call(w.admin.auth, id);
    assert.is(r.response.status, 404, String(id));
    assertSpec('adminListHookDeliveries', r);
  }
});

test('401: anonymous callers', async () => {
  const r = await call(undefined);
  assert.is(r.response.status, 401);
  assertSpec('adminListHookDeliveries', r);
});

test('403: signed in without the right to manage the hooks of the site', async () => {
  for (const who of rolesOf(w, 'admin').forbidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('adminListHookDeliveries', r);
  }
});

test.run();
