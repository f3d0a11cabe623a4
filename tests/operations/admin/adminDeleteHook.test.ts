// adminDeleteHook: delete a hook, for every role that matters.
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
  app.client(auth).DELETE('/admin/hooks/{id}', { params: { path: { id } } });

test('204: deleted, then 404', async () => {
  for (const who of rolesOf(w, 'admin').allowed) {
    const made = await app.client(w.admin.auth).POST('/admin/hooks', { body: hookBody(deadUrl) });
    assert.is(made.response.status, 201);
    const r = await call(who.auth, made.data!.id);
    assert.is(r.response.status, 204, who.username);
    assertSpec('adminDeleteHook', r);
    assert.is((await call(who.auth, made.data!.id)).response.status, 404, 'gone');
  }
});

test('404: an unknown id, and a hook of another scope', async () => {
  for (const id of [987654, w.hooks.org.id]) {
    const r = await call(w.admin.auth, id);
    assert.is(r.response.status, 404, String(id));
    assertSpec('adminDeleteHook', r);
  }
});

test('401: anonymous callers', async () => {
  const r = await call(undefined);
  assert.is(r.response.status, 401);
  assertSpec('adminDeleteHook', r);
});

test('403: signed in without the right to manage the hooks of the site', async () => {
  for (const who of rolesOf(w, 'admin').forbidden) {
    const r = await call(who.auth);
    assert.is(r.response.status, 403, who.username);
    assertSpec('adminDeleteHook', r);
  }
});

test.run();
