// adminListHooks: list the hooks, for every role that matters.
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

const call = (auth: string | undefined, query: { type?: 'system' | 'default' | 'all' } = {}) =>
  app.client(auth).GET('/admin/hooks', { params: { query } });

test('200: the hooks of the scope, oldest first, with X-Total-Count; the secret never shown', async () => {
  for (const who of rolesOf(w, 'admin').allowed) {
    const r = await call(who.auth, { type: 'all' });
    assert.is(r.response.status, 200, who.username);
    assertSpec('adminListHooks', r);
    const ids = r.data!.map((h) => h.id);
    assert.ok(ids.includes(w.hooks.admin.id));
    assert.not.ok(ids.includes(w.hooks.org.id), 'another scope\'s hook is not listed');
    assert.is(r.response.headers.get('x-total-count'), String(ids.length));
    assert.not.ok(JSON.stringify(r.data).includes('secret'));
  }
});

test('type: system (the default) and default select their kind; anything else is 422', async () => {
  const system = await call(w.admin.auth);
  assert.ok(system.data!.some((h) => h.id === w.hooks.admin.id));
  const dflt = await call(w.admin.auth, { type: 'default' });
  assert.not.ok(dflt.data!.some((h) => h.id === w.hooks.admin.id));
  const bad = await app.client(w.admin.auth).GET('/admin/hooks', { params: { query: { type: 'bogus' as 'all' } } });
  assert.is(bad.response.status, 422);
  assertSpec('adminListHooks', bad);
});

test('401: anonymous callers', async () => {
  const r = await call(undefined);
  assert.is(r.response.status, 401);
  assertSpec('adminListHooks', r);
});

test('403: signed in without the right to manage the hooks of the site', async () => {
  for (const who of rolesOf(w, 'admin').forbidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('adminListHooks', r);
  }
});

test.run();
